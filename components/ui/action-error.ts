/** The client side of `ActionResult`: a failed result becomes a thrown `ActionError` for TanStack mutations. */
export class ActionError extends Error {
  readonly code: string;
  readonly fieldErrors: Record<string, string>;
  constructor(error: { code: string; message: string; fieldErrors?: Record<string, string> }) {
    super(error.message);
    this.name = "ActionError";
    this.code = error.code;
    this.fieldErrors = error.fieldErrors ?? {};
  }
}

type Result<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; fieldErrors?: Record<string, string> } };

/** `useMutation({ mutationFn: (v) => unwrap(someAction(v)) })`. */
export async function unwrap<T>(result: Promise<Result<T>> | Result<T>): Promise<T> {
  const settled = await result;
  if (settled.ok) return settled.data;
  throw new ActionError(settled.error);
}
