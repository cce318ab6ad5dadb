import { z } from "zod";

/** The bundle format this Oda Admin writes and the only one it opens. */
export const BUNDLE_FORMAT = 1;

/**
 * The doctor report's section listing what was chosen but is not in the bundle: chat folders and
 * files removed while it was collected, and those the system would not give (as the manifest lists them).
 */
export const LEFT_OUT_SECTION = "left out of this bundle";

/** `manifest.json`, the first entry of every bundle. */
export const ZManifest = z.object({
  bundleFormat: z.number().int(),
  odaAdminVersion: z.string(),
  createdAt: z.string(),
  scope: z.object({
    chats: z.union([z.literal("all"), z.array(z.string())]),
    since: z.string().nullable(),
    memory: z.boolean(),
    redact: z.array(z.string()),
    /** How many keywords were redacted (never the words). */
    keywords: z.number().int().nonnegative(),
    dropText: z.boolean(),
    /** The admin state's notes on the chosen chats are in `notes/` (`bundle create --notes`). */
    notes: z.boolean().optional(),
  }),
  counts: z.object({
    files: z.number().int().nonnegative(),
    bytes: z.number().int().nonnegative(),
    chats: z.number().int().nonnegative(),
    memories: z.number().int().nonnegative(),
    /** Notes files (one per chat with notes), with `scope.notes`. */
    notes: z.number().int().nonnegative().optional(),
    redactedFiles: z.number().int().nonnegative(),
    replaced: z.record(z.string(), z.number().int().nonnegative()),
    problems: z.number().int().nonnegative(),
    /** Chosen files and folders not in the bundle (absent in bundles made before it was counted). */
    leftOut: z.number().int().nonnegative().optional(),
  }),
  files: z.array(
    z.object({ path: z.string(), size: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
  /**
   * The redaction report (absent in bundles made before it): where the key rules come from, and for each
   * kind that replaced something, how many values, how many replacements and which files. Never a value.
   */
  redaction: z
    .object({
      keyRules: z.string(),
      kinds: z.array(
        z.object({
          kind: z.string(),
          values: z.number().int().nonnegative(),
          replacements: z.number().int().nonnegative(),
          files: z.array(z.string()),
        }),
      ),
    })
    .optional(),
  /**
   * What was chosen but is not in the bundle: removed while it was collected
   * (`gone`) or not to be read (`unreadable`), each with its sentence.
   */
  leftOut: z
    .array(z.object({ path: z.string(), reason: z.enum(["gone", "unreadable"]), message: z.string() }))
    .optional(),
});
export type Manifest = z.infer<typeof ZManifest>;

/** The manifest is read whole: a larger first entry is not a bundle of ours. */
export const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A bundle path as it may stand in an archive: relative, forward slashes, no
 * `.`/`..`/empty segment, no backslash, colon or control character. `null`
 * means it is fine; otherwise the reason.
 */
export function badEntryPath(path: string): string | null {
  if (path.length === 0) return "an empty name";
  if (path.startsWith("/") || /^[A-Za-z]:/.test(path)) return "an absolute path";
  if (path.includes("\\")) return "a backslash";
  if (/[\u0000-\u001f]/.test(path)) return "a control character";
  const parts = path.split("/");
  if (parts.includes("..")) return "a .. segment";
  if (parts.some((p) => p === "" || p === ".")) return "an empty or . segment";
  return null;
}
