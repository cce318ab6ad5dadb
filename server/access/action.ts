import "server-only";
import type { z } from "zod";
import { type ErrorBody, errorBody, isOdaError } from "@/lib/errors";
import { systemErrorAsOda } from "@/lib/fs/system-error";
import { guardAction } from "@/server/access/guard";
import { requireWritable, type SourceContext } from "@/server/source/context";
import { actionSource } from "@/server/source/edge";

/** What every server action returns: never a thrown error across the boundary. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

const UNEXPECTED = "Something went wrong; nothing was changed. Try again, or run oda-admin doctor.";

/**
 * The body of every server action: the access guard, zod `safeParse` of the
 * input, one call into `lib`, and the result mapped to an `ActionResult`.
 * Unknown errors become a generic sentence: no stack trace or path reaches the page.
 *
 * The input carries `source`, the id of the source the page was rendered for
 * (`components/shell/source.tsx` adds it); its context is made here, once, and
 * handed to the body. `writes`: the action changes files, and is refused in a
 * source that cannot write (a support bundle), whatever the page showed.
 */
export async function runAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  body: (input: z.infer<S>, ctx: SourceContext) => Promise<T>,
  options: { writes?: boolean } = {},
): Promise<ActionResult<T>> {
  // Every action is a POST: the token, the host and the Origin are checked (a read is never an action; see server/reads/).
  await guardAction();
  let ctx: SourceContext;
  try {
    ctx = actionSource(sourceOf(input));
    // A change is refused here, in the server: hiding a button is not enough.
    if (options.writes) requireWritable(ctx);
  } catch (error) {
    if (isOdaError(error)) return { ok: false, error: errorBody(error, UNEXPECTED) };
    throw error;
  }
  return settle(schema, input, (parsed) => body(parsed, ctx));
}

/**
 * The shared body of an action and a read (`server/reads/`), once the caller
 * passed its guard and made its context: zod `safeParse` of the input, the
 * call, and the result mapped to an `ActionResult`.
 */
export async function settle<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  body: (input: z.infer<S>) => Promise<T> | T,
): Promise<ActionResult<T>> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join(".") || "input"] ??= issue.message;
    return { ok: false, error: { code: "bad_input", message: "The request was not valid.", fieldErrors } };
  }
  try {
    return { ok: true, data: await body(parsed.data) };
  } catch (thrown) {
    return failure(thrown);
  }
}

/** A thrown error as a result: an `OdaError` keeps its sentence; anything else becomes the generic one. */
export function failure(thrown: unknown): { ok: false; error: ErrorBody } {
  const error = systemErrorAsOda(thrown);
  if (!isOdaError(error)) console.error("oda-admin: unexpected error in a server action or read:", error);
  return { ok: false, error: errorBody(error, UNEXPECTED) };
}

/** The `source` an action's input names (the schemas ignore the key). */
function sourceOf(input: unknown): unknown {
  return input !== null && typeof input === "object" ? (input as { source?: unknown }).source : undefined;
}
