import { z } from "zod";
import { parseVersionName } from "./history";
import { MEMORY_ID_PATTERN, SHA256_PATTERN, WORKSPACE_KEY_PATTERN } from "./names";

/**
 * The zod schemas of the names a request may carry, built from the contract's
 * own patterns (`names.ts`), so a server action or route handler refuses
 * exactly what the store would refuse, before any file call.
 */

/** A memory id (`MEMORY_ID_PATTERN`). */
export const ZMemoryId = z.string().regex(MEMORY_ID_PATTERN);
/** A workspace key (`WORKSPACE_KEY_PATTERN`), or null for the global set. */
export const ZWorkspace = z.string().regex(WORKSPACE_KEY_PATTERN).nullable();
/** One memory of one set. */
export const ZMemoryRef = z.object({ workspace: ZWorkspace, id: ZMemoryId });
/** A version file's name, as `parseVersionName` reads it. */
export const ZVersionName = z
  .string()
  .max(64)
  .refine((name) => parseVersionName(name) !== null);
/** The SHA-256 a change was started from (optimistic concurrency). */
export const ZSha256 = z.string().regex(SHA256_PATTERN);
