import { join } from "node:path";
import { isOdaError, OdaError } from "../errors";
import {
  ensureFolderInside,
  type HeldLockFile,
  realRootOf,
  removeLeftoverTemps,
  type TargetedError,
  withLockFile,
} from "../fs";
import { finishPendingBulk } from "./bulk-journal";
import { type ChangeOptions, type ChangeResult, type Context, type Current, loadCurrent } from "./commit";
import { checkTitleAndText } from "./format";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { checkMemoryId, checkWorkspace, type MemoryId, type WorkspaceKey } from "./names";
import type { ParsedMemory } from "./parse";
import { type MemoryPlace, placeMemory } from "./paths";
import { FileMovedError } from "./replace-file";
import { readSettings } from "./settings";

/**
 * The machinery under every memory change: one change at a time per Oda home
 * across every Oda Admin process (`<home>/memory-history/.lock`), the current
 * state and the optimistic-concurrency check read under that lock, and the
 * write in the contract's order (`commit.ts`). The operations themselves live in
 * `change.ts`.
 */

/** Attempts at a change whose file an outside writer changed under it, before it is refused. */
const ATTEMPTS = 3;

/**
 * Runs `fn` holding the home's memory lock (see `lib/fs/home-lock.ts`), after
 * removing the temporary files interrupted saves left in the memory's
 * history folder: no other Oda Admin process writes there while the lock is
 * held, so every temporary file in it is a leftover.
 */
async function withHomeLock<T>(home: string, place: MemoryPlace, fn: (lock: HeldLockFile) => Promise<T>): Promise<T> {
  return withMemoryLock(home, async (lock) => {
    await removeLeftoverTemps(place.history, { minAgeMs: 0 });
    return fn(lock);
  });
}

/**
 * Runs `fn` holding the home's memory lock, after finishing a bulk change a
 * kill interrupted (`bulk.ts`): every change, single or bulk, starts from a
 * home where each bulk change happened whole.
 */
export async function withMemoryLock<T>(home: string, fn: (lock: HeldLockFile) => Promise<T>): Promise<T> {
  const folder = await ensureFolderInside(home, "memory-history");
  const options = {
    busy: () => new OdaError("locked", MESSAGES.busy),
    broken: (problem: string) => new OdaError("refused", MESSAGES.couldNotChange(problem)),
  };
  return withLockFile(join(folder, ".lock"), options, async (lock) => {
    await finishPendingBulk(home, lock);
    return fn(lock);
  });
}

/** Checks the names (once: everything below takes them as checked), then runs {@link mutateChecked}. */
export function mutate(
  home: string,
  workspace: string | null,
  id: string,
  options: ChangeOptions,
  fn: (ctx: Context) => Promise<ChangeResult>,
): Promise<ChangeResult> {
  return mutateChecked(home, checkWorkspace(workspace), checkMemoryId(id), options, fn);
}

/**
 * Reads the settings (unless the caller read them: `limits`), resolves the home's real path once, and reads
 * the current file under the lock; checks the caller's sha256, then runs `fn` with all of it in its `Context`.
 */
export async function mutateChecked(
  home: string,
  workspace: WorkspaceKey,
  id: MemoryId,
  options: ChangeOptions,
  fn: (ctx: Context) => Promise<ChangeResult>,
  known: { limits?: Limits } = {},
): Promise<ChangeResult> {
  try {
    const limits = known.limits ?? (await readSettings(home)).limits;
    const realHome = realRootOf(home);
    const place = await placeMemory(home, workspace, id, false, realHome);
    return await withHomeLock(home, place, async (lock) => {
      for (let attempt = 1; ; attempt++) {
        const current = await loadCurrent(place, limits);
        if (options.expectedSha256 !== undefined) {
          if (!current) throw new OdaError("not_found", MESSAGES.noMemoryIn(id, workspace));
          if (current.sha256 !== options.expectedSha256) throw new OdaError("conflict", MESSAGES.conflict);
        }
        const now = (options.now?.() ?? new Date()).toISOString();
        try {
          return await fn({ home, realHome, place, limits, current, now, options, lock });
        } catch (error) {
          // an outside writer changed the file while the change was made: start over from what it wrote
          if (!(error instanceof FileMovedError) || attempt >= ATTEMPTS) throw error;
        }
      }
    });
  } catch (error) {
    if (isOdaError(error)) throw error;
    throw new OdaError("io", MESSAGES.couldNotChange(systemReason(error as TargetedError)), { cause: error });
  }
}

/** What the system answered, in words, and the file it answered about (issue 24: EFBIG and EACCES named none). */
function systemReason(error: TargetedError): string {
  const code = error.code;
  if (!code) return "an unexpected error.";
  const file = error.target ?? error.path;
  const words = SYSTEM_WORDS[code];
  return `the file system answered ${code}${words ? ` (${words})` : ""}${file ? ` for ${file}` : ""}.`;
}

const SYSTEM_WORDS: Record<string, string> = {
  EFBIG: "the file would be larger than this process may write",
  ENOSPC: "no space left on the device",
  EDQUOT: "the disk quota is used up",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  EIO: "an input/output error",
};

export function requireLive(ctx: Context): Current & { parse: ParsedMemory } {
  const cur = ctx.current;
  if (!cur) throw new OdaError("not_found", MESSAGES.noMemoryIn(ctx.place.id, ctx.place.workspace));
  if (!cur.parse.ok) throw new OdaError("refused", MESSAGES.hasProblem(cur.parse.message));
  return cur as Current & { parse: ParsedMemory };
}

export function refuseFields(title: string, text: string, limits: Limits): void {
  const first = checkTitleAndText(title, text, limits)[0];
  if (first) throw new OdaError("refused", first.message, { field: first.field });
}

export type { ChangeOptions, ChangeResult, Context, Current } from "./commit";
export { commit, loadCurrent } from "./commit";
