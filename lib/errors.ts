/**
 * The one domain error of Oda Admin. `message` is always the exact,
 * user-facing sentence from the on-disk contract (`docs/file-contract.md`) or the
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

/**
 * What a sentence names, as data for programs (pages, repairs, the CLI), so
 * nothing has to parse it back out of the sentence.
 */
export interface OdaErrorData {
  /** Every file or folder the sentence names. */
  paths?: string[];
  /** The log named by the sentence's `raw log: <path>` note. */
  rawLog?: string;
  /** For a chat stored in two places: `duplicate`. */
  problem?: "duplicate";
  /** A bulk change refused whole: every reason, each with the memory it concerns (id null: a chat's budget). */
  reasons?: { workspace: string | null; id: string | null; message: string }[];
}

export class OdaError extends Error {
  readonly code: OdaErrorCode;
  /** For field-level refusals: which field the sentence concerns. */
  readonly field?: string;
  /** What the sentence names, when a caller acts on it. */
  readonly data?: OdaErrorData;

  constructor(code: OdaErrorCode, message: string, options?: { field?: string; cause?: unknown; data?: OdaErrorData }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "OdaError";
    this.code = code;
    this.field = options?.field;
    this.data = options?.data;
  }
}

/** An error as the three surfaces answer it: server actions, route handlers and `--json` of the CLI. */
export interface ErrorBody {
  code: OdaErrorCode | "unexpected";
  message: string;
  fieldErrors?: Record<string, string>;
}

/**
 * The `{ code, message }` body of a refusal, the same for server actions, route
 * handlers, `/api/chats` and the CLI's `--json`. An error that is not an
 * `OdaError` becomes `unexpected` with the caller's generic sentence: no stack
 * trace or path reaches the page.
 */
export function errorBody(error: unknown, unexpected: string): ErrorBody {
  if (!isOdaError(error)) return { code: "unexpected", message: unexpected };
  return {
    code: error.code,
    message: error.message,
    ...(error.field ? { fieldErrors: { [error.field]: error.message } } : {}),
  };
}

/** True for an `OdaError`, also across module copies (Next bundles, vitest). */
export function isOdaError(value: unknown): value is OdaError {
  return value instanceof OdaError || (value instanceof Error && value.name === "OdaError" && "code" in value);
}

/** An error as plain data, to cross a worker thread's port (an `OdaError` keeps its code, sentence and data). */
export interface ErrorData {
  name: string;
  code?: string;
  message: string;
  data?: OdaErrorData;
}

/** An error as plain data (see `ErrorData`). */
export function errorToData(error: unknown): ErrorData {
  const e = error as { name?: string; code?: unknown; message?: string; data?: OdaErrorData } | null;
  return {
    name: e?.name ?? "Error",
    code: typeof e?.code === "string" ? e.code : undefined,
    message: e?.message ?? String(error),
    data: e?.data,
  };
}

/** An error sent by a worker as plain data, back as an error (an `OdaError` keeps its code and data). */
export function errorFromData(data: ErrorData): Error {
  if (data.name === "OdaError" && data.code)
    return new OdaError(data.code as OdaErrorCode, data.message, data.data ? { data: data.data } : undefined);
  return new Error(data.message);
}

/** Control characters (C0, DEL, C1), line and paragraph separators, and the bidi overrides and isolates. */
const CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A sentence for a plain-text answer: every control character (an id's NUL, a newline, an escape, a bidi
 * override) as `\uXXXX`, so what a terminal or browser shows is the sentence, one line, as JSON would show it.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, "0")}`);
}
