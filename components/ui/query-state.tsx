import type { ReactNode } from "react";
import { Alert } from "./alert";

/** A query as TanStack Query reports it (only what the states below read). */
export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: Error | null;
  data: T | undefined;
}

/** "Reading the set…": a polite status with a progress bar of unknown length, named by the sentence. */
export function Loading({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center gap-3 text-sm">
      <span>{label}</span>
      <progress aria-label={label} className="h-1.5 w-24 accent-blue-600" />
    </div>
  );
}

/**
 * What a query shows until it has data: `loading` while it runs, its error as
 * an Alert, and `empty` when the data is there but `isEmpty` says there is
 * nothing to show; otherwise `children(data)`.
 */
export function QueryState<T>({
  query,
  loading,
  empty,
  isEmpty,
  children,
}: {
  query: QueryLike<T>;
  /** The sentence shown while reading, such as "Reading the set…". */
  loading: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isError) return <Alert tone="error">{query.error?.message}</Alert>;
  if (query.isPending || query.data === undefined) return <Loading label={loading} />;
  if (empty !== undefined && isEmpty?.(query.data)) return <>{empty}</>;
  return <>{children(query.data)}</>;
}
