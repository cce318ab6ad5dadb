import { type Dir, type Dirent, existsSync, opendirSync } from "node:fs";
import { join, sep } from "node:path";
import { OdaError } from "../errors";
import { isSystemError } from "../fs/system-error";
import {
  badNameProblem,
  type ChatLocation,
  type FolderScan,
  notGroupProblem,
  refusedInto,
  subfolders,
  unlistedProblem,
} from "./folder";
import { nameAt, pack, type ScannedGroup, storedTwiceInSteps } from "./folder-duplicates";
import { realLogRoot, sortFolders } from "./links";
import { decodeName, parseGroupName } from "./names";
import type { Problem } from "./problem";

/**
 * The chats of a log folder as `listChats` hands them out to be read, a batch at a time: from a walk that has
 * ended (`scannedFeed`), or from one still going on (`walkInTurns`), so the first chats are read while later
 * group folders are still listed.
 */
export interface ChatFeed {
  /**
   * The next `size` chats in the walk's order, or fewer once the walk has ended (none when none are left);
   * none while the walk goes on and fewer than `size` are known. Throws the walk's failure.
   */
  take(size: number): ChatLocation[];
  /** Folder-level problems found since the last call. */
  problems(): Problem[];
  /** True once every group folder is walked and the chats stored twice are known. */
  readonly walked: boolean;
  /** The chats handed out in all, once walked; until then the chats found so far. */
  readonly total: number;
  /** Resolves when the walk has gone on (more chats, problems, or its end); rejects with its failure. */
  more(): Promise<void>;
  /** Stops the walk (the listing was left early). */
  stop(): void;
}

/** A walk that has ended (`scanLogFolder`) as a feed: its problems all at once, then its chats in order. */
export function scannedFeed(scan: FolderScan): ChatFeed {
  let next = 0;
  let problems = scan.problems;
  return {
    take(size) {
      const chats = scan.chatsAt(next, next + size);
      next += chats.length;
      return chats;
    },
    problems() {
      const found = problems;
      problems = [];
      return found;
    },
    walked: true,
    total: scan.total,
    more: () => Promise.resolve(),
    stop() {},
  };
}

/** The longest stretch the walk keeps the event loop busy before it gives a turn. */
const SLICE_MS = 8;
/** Entries of a group folder read between two looks at the clock. */
const ENTRIES_PER_LOOK = 256;
const aTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `scanLogFolder`'s walk, giving the event loop a turn every few milliseconds (within a large group folder too),
 * with its chats handed out as each group folder is listed. Every problem of `scanLogFolder` is found, in the
 * same words: a group's as it is listed, the chats stored twice when the walk ends (they are known only then,
 * from the sorted names, with no map of every id: `folder-duplicates.ts`). From then on their copies are left
 * out as `scanLogFolder` leaves them out; a copy handed out before was read, and counts in `total`.
 * Tests set `sliceMs` (0: a turn at every look at the clock), or `turn`, awaited after each group folder in
 * place of the turns.
 */
export function walkInTurns(
  logDir: string,
  { turn, sliceMs = SLICE_MS }: { turn?: () => Promise<void>; sliceMs?: number } = {},
): ChatFeed {
  if (!existsSync(logDir)) throw new OdaError("not_found", `The log folder ${logDir} does not exist.`);
  const root = realLogRoot(logDir);
  let found: Problem[] = [];
  const top = subfolders(logDir, root, found, true);
  const groups: ScannedGroup[] = [];
  /** Chats found; positions passed by `take` (the group and name it is at); copies of chats stored twice. */
  let count = 0;
  let passed = 0;
  let gi = 0;
  let ni = 0;
  let refused = new Set<string>();
  let walked = false;
  let stopped = false;
  let failure: unknown = null;
  const waiting: (() => void)[] = [];
  const wake = () => {
    for (const resume of waiting.splice(0)) resume();
  };
  let slice = performance.now();
  /** True when the walk has kept the event loop for a slice: it then gives a turn (no await otherwise, so a
   * small folder is walked before `walkInTurns` returns, as `scanLogFolder` walks it). */
  const due = () => !turn && performance.now() - slice >= sliceMs;
  const giveTurn = async () => {
    await aTurn();
    slice = performance.now();
  };

  /**
   * Reads on in a group folder until its end or a turn is due: its entries once all are read (the folder
   * closed), `null` (and its problem) when the system would not list it, `undefined` while more are to be read.
   */
  const readOn = (g: { dir: string; folder: Dir | null; entries: Dirent[] }): Dirent[] | null | undefined => {
    try {
      g.folder ??= opendirSync(g.dir, { bufferSize: ENTRIES_PER_LOOK });
      for (let e = g.folder.readSync(); e; e = g.folder.readSync()) {
        g.entries.push(e);
        if (g.entries.length % ENTRIES_PER_LOOK === 0 && due()) return undefined;
      }
      g.folder.closeSync();
      return g.entries;
    } catch (error) {
      g.folder?.close().catch(() => {});
      if (!isSystemError(error)) throw error;
      found.push(unlistedProblem(g.dir, error));
      return null;
    }
  };

  const walk = async () => {
    for (const group of top) {
      const dir = join(logDir, group);
      const parsed = parseGroupName(group);
      const reading = { dir, folder: null as Dir | null, entries: [] as Dirent[] };
      let entries = parsed ? readOn(reading) : null;
      while (entries === undefined) {
        await giveTurn();
        if (stopped) return reading.folder?.closeSync();
        entries = readOn(reading);
      }
      if (!parsed) found.push(notGroupProblem(dir, group));
      else if (entries) {
        const names: string[] = [];
        for (const name of refusedInto(sortFolders(dir, entries, root), found))
          if (decodeName(name) === null) found.push(badNameProblem(dir, name));
          else names.push(name);
        groups.push({ group, dir, cwd: parsed.cwd, ...pack(names), at: 0, bad: [] });
        count += names.length;
      }
      wake();
      if (turn) await turn();
      else if (due()) await giveTurn();
      if (stopped) return;
    }
    // A copy is handed out when `take` has passed it; those left are never read, and not counted.
    const passedBy = (g: number, i: number) => g < gi || (g === gi && i < ni);
    const twice: { group: number; index: number; problem: Problem }[] = [];
    const names = new Set<string>();
    const merging = storedTwiceInSteps(groups, ENTRIES_PER_LOOK);
    let r = merging.next();
    for (; !r.done; r = merging.next()) {
      if (!due()) continue;
      await giveTurn();
      if (stopped) return;
    }
    for (const t of r.value) {
      names.add(t.name);
      for (const c of t.copies) if (!passedBy(c.group, c.index)) count--;
      for (const { copy, problem } of t.problems) twice.push({ ...copy, problem });
    }
    twice.sort((a, b) => a.group - b.group || a.index - b.index);
    found.push(...twice.map((t) => t.problem));
    refused = names;
    walked = true;
  };
  walk()
    .catch((error: unknown) => {
      failure = error;
    })
    .finally(wake);

  return {
    take(size) {
      if (failure) throw failure;
      if (!walked && count - passed < size) return [];
      const chats: ChatLocation[] = [];
      while (chats.length < size && gi < groups.length) {
        const g = groups[gi] as ScannedGroup;
        if (ni >= g.ends.length) {
          gi++;
          ni = 0;
          continue;
        }
        const name = nameAt(g, ni++);
        passed++;
        if (refused.size && refused.has(name)) continue;
        const id = decodeName(name) as string;
        chats.push({
          id,
          folder: `${g.group}/${name}`,
          group: g.group,
          cwd: g.cwd,
          dir: `${g.dir}${sep}${name}`,
          root,
        });
      }
      return chats;
    },
    problems() {
      const out = found;
      found = [];
      return out;
    },
    get walked() {
      return walked;
    },
    get total() {
      return count;
    },
    more() {
      if (walked || failure) return failure ? Promise.reject(failure) : Promise.resolve();
      return new Promise<void>((resume) => waiting.push(resume)).then(() => {
        if (failure) throw failure;
      });
    },
    stop() {
      stopped = true;
    },
  };
}
