/**
 * The one domain error of Oda Admin. `message` is always the exact,
 * user-facing sentence from the on-disk contract (`shared/oda-files.md`) or the
 * seeds; `code` is for programs (the CLI's exit path, the server actions' result
 * objects, tests).
 */
export type OdaErrorCode =
  /** An id, workspace key or other name that is data failed its pattern. */
  | "invalid_name"
  /** A path would leave its root (through `..`, a symlink or anything else). */
  | "outside_root"
  | "not_found"
  /** A change was refused by a rule of the seed or the contract. */
  | "refused"
  /** The caller's view of a file is out of date (optimistic concurrency). */
  | "conflict"
  /** The file exists but cannot be used; its message names why. */
  | "unusable"
  /** Another live writer holds the chat. */
  | "locked"
  /** A request is malformed (CLI arguments, action input). */
  | "bad_input"
  | "io";

export class OdaError extends Error {
  readonly code: OdaErrorCode;
  /** For field-level refusals: which field the sentence concerns. */
  readonly field?: string;

  constructor(code: OdaErrorCode, message: string, options?: { field?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OdaError";
    this.code = code;
    this.field = options?.field;
  }
}

/** True for an `OdaError`, also across module copies (Next bundles, vitest). */
export function isOdaError(value: unknown): value is OdaError {
  return value instanceof OdaError || (value instanceof Error && value.name === "OdaError" && "code" in value);
}
