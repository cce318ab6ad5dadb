import "server-only";
import type { z } from "zod";
import { isOdaError, type OdaErrorCode } from "@/lib/errors";
import { refuseInBundle } from "@/server/bundle";
import { guardAction } from "@/server/guard";

/** What every server action returns: never a thrown error across the boundary. */
export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: OdaErrorCode | "unexpected"; message: string; fieldErrors?: Record<string, string> } };

const UNEXPECTED = "Something went wrong; nothing was changed. Try again, or run oda-admin doctor.";

/**
 * The body of every server action: the access guard, zod `safeParse` of the
 * input, one call into `lib`, and the result mapped to an `ActionResult`.
 * Unknown errors become a generic sentence: no stack trace or path reaches the page.
 * `writes`: the action changes files, and is refused while a support bundle is shown.
 */
export async function runAction<S extends z.ZodType, T>(
  schema: S,
  input: unknown,
  body: (input: z.infer<S>) => Promise<T>,
  options: { writes?: boolean } = {},
): Promise<ActionResult<T>> {
  await guardAction();
  // A change is refused here, in the server, while a support bundle is shown: hiding a button is not enough.
  if (options.writes) {
    try {
      refuseInBundle();
    } catch (error) {
      if (isOdaError(error)) return { ok: false, error: { code: error.code, message: error.message } };
      throw error;
    }
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[issue.path.join(".") || "input"] ??= issue.message;
    return { ok: false, error: { code: "bad_input", message: "The request was not valid.", fieldErrors } };
  }
  try {
    return { ok: true, data: await body(parsed.data) };
  } catch (error) {
    if (isOdaError(error)) {
      return {
        ok: false,
        error: {
          code: error.code,
          message: error.message,
          ...(error.field ? { fieldErrors: { [error.field]: error.message } } : {}),
        },
      };
    }
    console.error("oda-admin: unexpected error in a server action:", error);
    return { ok: false, error: { code: "unexpected", message: UNEXPECTED } };
  }
}
