"use client";

/** Any unexpected failure: a generic sentence, never a stack trace or a path. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <div role="alert" className="space-y-3">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p>This page could not be shown. Nothing was changed on disk.</p>
      <button
        type="button"
        className="rounded bg-zinc-900 px-3 py-1.5 text-white dark:bg-zinc-100 dark:text-zinc-900"
        onClick={reset}
      >
        Try again
      </button>
    </div>
  );
}
