import { OdaError } from "../errors";

/** A memory id: exactly eight characters 0-9 a-f, the whole file name. */
export const MEMORY_ID_PATTERN = /^[0-9a-f]{8}$/;
/** A workspace key: the name of a workspace's set folder (never `.` or `..`). */
export const WORKSPACE_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,254}$/;

/** A file's SHA-256 as lowercase hex: what a change carries from the file it started from. */
export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** True for a valid memory id. */
export function isMemoryId(value: unknown): value is string {
  return typeof value === "string" && MEMORY_ID_PATTERN.test(value);
}

/** True for a valid workspace key. */
export function isWorkspaceKey(value: unknown): value is string {
  return typeof value === "string" && WORKSPACE_KEY_PATTERN.test(value);
}

function show(value: unknown): string {
  return JSON.stringify(String(value).slice(0, 80));
}

/** Throws `invalid_name` unless `id` is a memory id. Called before any file call. */
export function assertMemoryId(id: unknown): asserts id is string {
  if (!isMemoryId(id)) {
    throw new OdaError("invalid_name", `${show(id)} is not a memory id: an id is eight characters, 0-9 and a-f.`, {
      field: "id",
    });
  }
}

/** Throws `invalid_name` unless `key` is null (the global set) or a workspace key. */
export function assertWorkspace(key: unknown): asserts key is string | null {
  if (key !== null && !isWorkspaceKey(key)) {
    throw new OdaError(
      "invalid_name",
      `${show(key)} is not a workspace key: letters, digits, dots, underscores and hyphens, beginning with a letter or digit.`,
      { field: "workspace" },
    );
  }
}

declare const checked: unique symbol;
/** A workspace key proven by {@link checkWorkspace} (or null, the global set): what paths are made of, never checked again. */
export type WorkspaceKey = (string & { readonly [checked]: "workspace" }) | null;
/** A memory id proven by {@link checkMemoryId}: never checked again below the entry that checked it. */
export type MemoryId = string & { readonly [checked]: "memory-id" };

/** The workspace key, checked once at a change's or a read's entry (`invalid_name` with its sentence otherwise). */
export function checkWorkspace(key: unknown): WorkspaceKey {
  assertWorkspace(key);
  return key as WorkspaceKey;
}

/** The memory id, checked once at the entry (`invalid_name` with its sentence otherwise). */
export function checkMemoryId(id: unknown): MemoryId {
  assertMemoryId(id);
  return id as MemoryId;
}
