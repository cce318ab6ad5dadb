import { sep } from "node:path";
import { decodeName } from "./names";
import { type Problem, problemAt } from "./problem";

/**
 * The chats a folder walk found in more than one group (`docs/file-contract.md`, Chat logs > Layout: a chat id
 * is in one folder only), found after the walk from the groups' sorted names, with no map of every id.
 * A chat id has one spelling as a folder name (`decodeName` refuses any other), so one id in two groups is
 * one name in two groups' lists; each list is sorted (`listFolders`), so a merge of the lists meets a name's
 * copies one after another. It holds one slot per group, not one per chat: at a million chats the walk's
 * map of ids (a hash table of a million entries, copied as it grew) was most of its peak. Also the walk's
 * groups as it keeps them (names packed) and its problems put back in the walk's order (`scanLogFolder`).
 */

/** One copy of a chat stored in several groups: the group's place in the walk and the name's in its list. */
export interface FolderCopy {
  group: number;
  index: number;
}

/**
 * Every name found in two groups or more, each as its copies in the walk's order (the first copy is the one
 * the others are reported against), the names in sorted order. Group `g` has `counts[g]` names, `nameAt(g, i)`
 * its `i`th: sorted (by code units, as `listFolders` sorts), none twice.
 */
export function duplicateNames(
  counts: readonly number[],
  nameAt: (group: number, index: number) => string,
): FolderCopy[][] {
  return finish(mergeNames(counts, nameAt, Number.POSITIVE_INFINITY));
}

/** Runs a merge in steps (`mergeNames`) to its end. */
function finish<T>(steps: Generator<void, T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** `duplicateNames` a part at a time: pauses (yields) after every `step` names merged. */
function* mergeNames(
  counts: readonly number[],
  nameAt: (group: number, index: number) => string,
  step: number,
): Generator<void, FolderCopy[][]> {
  const found: FolderCopy[][] = [];
  if (counts.length < 2) return found;
  // A binary heap of the groups not yet merged to their end, smallest head first (ties: the earlier group).
  const at = new Int32Array(counts.length);
  const heads: string[] = counts.map((n, g) => (n ? nameAt(g, 0) : ""));
  const heap: number[] = [];
  const head = (g: number) => heads[g] as string;
  const before = (a: number, b: number) => {
    const ha = head(a);
    const hb = head(b);
    return ha < hb || (ha === hb && a < b);
  };
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < heap.length && before(heap[l] as number, heap[least] as number)) least = l;
      if (r < heap.length && before(heap[r] as number, heap[least] as number)) least = r;
      if (least === i) return;
      [heap[i], heap[least]] = [heap[least] as number, heap[i] as number];
      i = least;
    }
  };
  for (let g = 0; g < counts.length; g++) if (counts[g]) heap.push(g);
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let last: string | undefined;
  // The name's first copy, made an object only when a second one follows (a copy per chat would be garbage).
  let firstGroup = -1;
  let firstIndex = -1;
  let copies: FolderCopy[] | null = null;
  let merged = 0;
  while (heap.length) {
    const g = heap[0] as number;
    const name = head(g);
    if (name !== last) {
      last = name;
      firstGroup = g;
      firstIndex = at[g] as number;
      copies = null;
    } else {
      if (!copies) {
        copies = [{ group: firstGroup, index: firstIndex }];
        found.push(copies);
      }
      copies.push({ group: g, index: at[g] as number });
    }
    at[g] = (at[g] as number) + 1;
    if ((at[g] as number) >= (counts[g] as number)) {
      heap[0] = heap[heap.length - 1] as number;
      heap.pop();
    } else heads[g] = nameAt(g, at[g] as number);
    down(0);
    if (++merged % step === 0) yield;
  }
  // Equal heads leave the heap by group, so each name's copies are in the walk's order already.
  return found;
}

/** One group folder of a scan: its chat folders' names, sorted, the refused ones taken out after the walk. */
export interface ScannedGroup {
  group: string;
  dir: string;
  cwd: string | null;
  /** Its names joined by "/" (no name holds one), and where each ends: about 16 bytes a chat, not 40. */
  packed: string;
  ends: Uint32Array;
  /** Where its chats' problems go among the walk's (after its listing's refusals). */
  at: number;
  /** Its names that do not decode, each with the number of names kept before it. */
  bad: { before: number; problem: Problem }[];
}

/** A group's names packed (see `ScannedGroup`). */
export function pack(names: string[]): { packed: string; ends: Uint32Array } {
  const ends = new Uint32Array(names.length);
  let end = -1;
  for (let i = 0; i < names.length; i++) {
    end += (names[i] as string).length + 1;
    ends[i] = end;
  }
  return { packed: names.join("/"), ends };
}

/** A group's `i`th name. */
export function nameAt(g: ScannedGroup, i: number): string {
  return g.packed.slice(i ? (g.ends[i - 1] as number) + 1 : 0, g.ends[i]);
}

/** A chat found in several groups: its folder name (refused in every group), its copies, a problem per later copy. */
export interface StoredTwice {
  name: string;
  /** In the walk's order: the first is the copy the others are reported against. */
  copies: FolderCopy[];
  problems: { copy: FolderCopy; problem: Problem }[];
}

/** Every chat the walk's groups hold more than once, the names in sorted order (see `duplicateNames`). */
export function storedTwice(groups: ScannedGroup[]): StoredTwice[] {
  return finish(storedTwiceInSteps(groups, Number.POSITIVE_INFINITY));
}

/**
 * `storedTwice` a part at a time, for a walk that gives the event loop turns (`walkInTurns`): pauses after
 * every `step` names merged (a merge of 100,000 names took 60–370 ms in one go).
 */
export function* storedTwiceInSteps(groups: ScannedGroup[], step: number): Generator<void, StoredTwice[]> {
  const counts = groups.map((g) => g.ends.length);
  const merged = yield* mergeNames(counts, (g, i) => nameAt(groups[g] as ScannedGroup, i), step);
  return merged.map((copies) => {
    const [first, ...later] = copies as [FolderCopy, ...FolderCopy[]];
    const name = nameAt(groups[first.group] as ScannedGroup, first.index);
    const id = decodeName(name) as string;
    const firstDir = `${(groups[first.group] as ScannedGroup).dir}${sep}${name}`;
    const problems = later.map((copy) => {
      const dir = `${(groups[copy.group] as ScannedGroup).dir}${sep}${name}`;
      return {
        copy,
        problem: problemAt("duplicate", dir, duplicateSentence(id, firstDir, dir), {
          paths: [firstDir, dir],
          chat: id,
        }),
      };
    });
    return { name, copies, problems };
  });
}

/**
 * The walk's problems in its order: each group's chats' problems (names that do not decode, and each later copy
 * of a chat stored twice, naming the first) where the walk met them, after its listing's refusals. Also the
 * names of the chats stored twice (one spelling per id: `decodeName`), refused in every group.
 */
export function placeProblems(
  groups: ScannedGroup[],
  walked: Problem[],
): { problems: Problem[]; refused: Set<string> } {
  const refused = new Set<string>();
  const dups: { index: number; problem: Problem }[][] = groups.map(() => []);
  for (const twice of storedTwice(groups)) {
    refused.add(twice.name);
    for (const { copy, problem } of twice.problems)
      (dups[copy.group] as { index: number; problem: Problem }[]).push({ index: copy.index, problem });
  }
  const problems: Problem[] = [];
  let done = 0;
  groups.forEach((g, gi) => {
    for (; done < g.at; done++) problems.push(walked[done] as Problem);
    // A name that does not decode comes before the kept name it was listed before; both lists are in list order.
    const d = (dups[gi] as { index: number; problem: Problem }[]).sort((a, b) => a.index - b.index);
    let b = 0;
    for (const { index, problem } of d) {
      for (; b < g.bad.length && (g.bad[b] as ScannedGroup["bad"][number]).before <= index; b++)
        problems.push((g.bad[b] as ScannedGroup["bad"][number]).problem);
      problems.push(problem);
    }
    for (; b < g.bad.length; b++) problems.push((g.bad[b] as ScannedGroup["bad"][number]).problem);
    g.bad = [];
  });
  for (; done < walked.length; done++) problems.push(walked[done] as Problem);
  return { problems, refused };
}

/** The sentence for a chat stored in two places. */
export function duplicateSentence(id: string, first: string, second: string): string {
  return `Chat "${id}" is stored in two places: ${first} and ${second}.`;
}
