import { diffMemory } from "../../diff/memory-diff";
import { isOdaError } from "../../errors";
import type { Limits } from "../limits";
import { listSet, type MemorySet, type MemorySummary } from "../list-set";
import { listWorkspaces } from "../listing-cache";
import { mapPool } from "../read-file";
import { readSettings, type SettingsProblem } from "../settings";
import { requireWorkspaceSet } from "../workspace-set";
import { BANDS, bandKeys, normaliseForCompare, similarity, wordsOf } from "./compare";
import {
  type LintFinding,
  type LintKind,
  type LintMemory,
  type LintReport,
  type LintScope,
  NEAR_LIMIT_SHARE,
  type NearPair,
} from "./types";

/**
 * Memory lint: duplicates, near duplicates, conflicts, budgets and problem
 * files over the sets a scope names (docs/memory-health.md).
 *
 * Bounded time: every check is one pass over the memories with maps keyed by
 * normalised text or title, except near duplicates, which compare only
 * memories sharing a MinHash bucket (`compare.ts`), and in each bucket each
 * memory with at most {@link BUCKET_REPS} others.
 */

/** Tunables of a lint run. */
export interface LintOptions {
  /** A memory turned off for longer than this many days is reported (default 30). */
  offDays?: number;
  /** Least share of distinct words in common for a near duplicate (default 0.7). */
  nearThreshold?: number;
  /** How many of a chat's costliest memories a budget finding lists (default 5). */
  costliest?: number;
  /** The moment "turned off for N days" is counted to (tests fix it). */
  now?: Date;
}

export const DEFAULT_OFF_DAYS = 30;
export const DEFAULT_NEAR_THRESHOLD = 0.7;
const DAY_MS = 86_400_000;
/** Memories of one bucket each newcomer is compared with: keeps a bucket of n memories at O(n) comparisons. */
const BUCKET_REPS = 4;

/** Reads the sets of `scope` and lints them. A workspace with no set is refused as every memory command refuses it. */
export async function lintMemory(home: string, scope: LintScope, options: LintOptions = {}): Promise<LintReport> {
  const settings = await readSettings(home);
  let keys: (string | null)[];
  if ("workspace" in scope) {
    await requireWorkspaceSet(home, scope.workspace);
    keys = [null, scope.workspace];
  } else keys = "all" in scope ? [null, ...(await listWorkspaces(home))] : [null];
  const unreadable: LintFinding[] = [];
  const read = await mapPool(keys, 8, async (k) => {
    try {
      return await listSet(home, k, { limits: settings.limits });
    } catch (error) {
      const path = k === null ? "memory/global" : `memory/workspaces/${k}`;
      const message = isOdaError(error) ? error.message : String(error);
      unreadable.push({ kind: "problem", workspace: k, id: null, path, message });
      return null;
    }
  });
  const sets = read.filter((s): s is MemorySet => s !== null);
  const report = lintSets(sets, settings.limits, options, settings.problems);
  report.sets = keys;
  report.findings.splice(settings.problems.length, 0, ...unreadable);
  report.counts.problem += unreadable.length;
  return report;
}

interface Entry {
  m: MemorySummary;
  ref: LintMemory;
  norm: string;
}

const refOf = (m: MemorySummary): LintMemory => {
  const r: LintMemory = {
    id: m.id,
    workspace: m.workspace,
    title: m.title,
    enabled: m.enabled,
    tokens: m.tokens,
    author: m.author,
  };
  if (m.sessionId !== undefined) r.sessionId = m.sessionId;
  return r;
};

/** True when some chat receives two of these memories: two in one set, or one global beside any other. */
function reachSameChat(members: { workspace: string | null }[]): boolean {
  const seen = new Set<string | null>();
  for (const { workspace } of members) {
    if (seen.has(workspace)) return true;
    seen.add(workspace);
  }
  return seen.has(null) && seen.size > 1;
}

/**
 * Lints sets already read (`sets` with the global set, when given, first):
 * the pure part of {@link lintMemory}, which the bench and the tests call too.
 */
export function lintSets(
  sets: MemorySet[],
  limits: Limits,
  options: LintOptions = {},
  settingsProblems: SettingsProblem[] = [],
): LintReport {
  const offDays = options.offDays ?? DEFAULT_OFF_DAYS;
  const nearThreshold = options.nearThreshold ?? DEFAULT_NEAR_THRESHOLD;
  const now = (options.now ?? new Date()).getTime();
  const entries: Entry[] = sets.flatMap((s) =>
    s.memories.map((m) => ({ m, ref: refOf(m), norm: normaliseForCompare(m.text) })),
  );
  const findings: LintFinding[] = [
    ...settingsProblems.map(
      (p): LintFinding => ({ kind: "problem", workspace: null, id: null, path: p.path, message: p.message }),
    ),
    ...sets.flatMap((s) =>
      s.problems.map((p): LintFinding => {
        const f: LintFinding = { kind: "problem", workspace: s.workspace, id: p.id, path: p.path, message: p.message };
        if (p.line !== undefined) f.line = p.line;
        return f;
      }),
    ),
    ...conflicts(entries),
    ...exactDuplicates(entries),
    ...nearDuplicates(entries, nearThreshold),
    ...offTooLong(entries, offDays, now),
    ...nearLimits(entries, limits),
    ...budgets(sets, limits, options.costliest ?? 5),
  ];
  const counts: Record<LintKind, number> = { problem: 0, conflict: 0, exact: 0, near: 0, off: 0, limit: 0, budget: 0 };
  for (const f of findings) counts[f.kind]++;
  return {
    sets: sets.map((s) => s.workspace),
    memories: entries.length,
    offDays,
    nearThreshold,
    findings,
    counts,
  };
}

function groupBy<K>(entries: Entry[], key: (e: Entry) => K): Map<K, Entry[]> {
  const groups = new Map<K, Entry[]>();
  for (const e of entries) {
    const k = key(e);
    const g = groups.get(k);
    if (g) g.push(e);
    else groups.set(k, [e]);
  }
  return groups;
}

function exactDuplicates(entries: Entry[]): LintFinding[] {
  const out: LintFinding[] = [];
  for (const group of groupBy(entries, (e) => e.norm).values()) {
    if (group.length < 2) continue;
    out.push({ kind: "exact", memories: group.map((e) => e.ref), sameChat: reachSameChat(group.map((e) => e.ref)) });
  }
  return out;
}

/**
 * Same title (compared as texts are), different texts, in one chat: within a
 * set, or a global memory and a workspace's. Two workspaces may well keep
 * different "Build command" memories; no chat receives both.
 */
function conflicts(entries: Entry[]): LintFinding[] {
  const out: LintFinding[] = [];
  for (const group of groupBy(entries, (e) => normaliseForCompare(e.m.title)).values()) {
    if (group.length < 2) continue;
    const global = group.filter((e) => e.m.workspace === null);
    const bySet = groupBy(
      group.filter((e) => e.m.workspace !== null),
      (e) => e.m.workspace,
    );
    const differs = (members: Entry[]) => new Set(members.map((e) => e.norm)).size > 1;
    const report = (members: Entry[]) =>
      out.push({ kind: "conflict", title: members[0]?.m.title ?? "", memories: members.map((e) => e.ref) });
    if (differs(global)) report(global);
    // a workspace's chats receive the global memories too; with any text differing, each of its memories conflicts
    for (const members of bySet.values()) if (differs([...global, ...members])) report([...global, ...members]);
  }
  return out;
}

function nearDuplicates(entries: Entry[], threshold: number): LintFinding[] {
  // one memory per distinct normalised text: exact duplicates are their own finding
  const distinct = [...groupBy(entries, (e) => e.norm).values()].map((g) => g[0] as Entry);
  const words = distinct.map((e) => wordsOf(e.norm));
  const parent = distinct.map((_, i) => i);
  const find = (i: number): number => {
    let r = i;
    while (parent[r] !== r) r = parent[r] as number;
    while (parent[i] !== r) {
      const next = parent[i] as number;
      parent[i] = r;
      i = next;
    }
    return r;
  };
  const edges: { a: number; b: number; score: number }[] = [];
  const buckets = Array.from({ length: BANDS }, () => new Map<number, number[]>());
  for (let i = 0; i < distinct.length; i++) {
    const w = words[i] as Set<string>;
    if (w.size === 0) continue;
    const keys = bandKeys(w);
    for (let band = 0; band < BANDS; band++) {
      const bucket = buckets[band] as Map<number, number[]>;
      const key = keys[band] as number;
      let reps = bucket.get(key);
      if (!reps) {
        reps = [];
        bucket.set(key, reps);
      }
      let linked = false;
      for (const j of reps) {
        if (find(i) === find(j)) {
          linked = true;
          continue;
        }
        const score = similarity(w, words[j] as Set<string>);
        if (score >= threshold) {
          parent[find(i)] = find(j);
          edges.push({ a: j, b: i, score });
          linked = true;
        }
      }
      if (!linked && reps.length < BUCKET_REPS) reps.push(i);
    }
  }
  const clusters = new Map<number, { members: number[]; edges: typeof edges }>();
  for (const e of edges) {
    const root = find(e.a);
    let c = clusters.get(root);
    if (!c) {
      c = { members: [], edges: [] };
      clusters.set(root, c);
    }
    c.edges.push(e);
  }
  for (let i = 0; i < distinct.length; i++) clusters.get(find(i))?.members.push(i);
  const out: LintFinding[] = [];
  for (const { members, edges: es } of clusters.values()) {
    const at = new Map(members.map((m, k) => [m, k]));
    const pairs: NearPair[] = es.map((e) => {
      const a = distinct[e.a] as Entry;
      const b = distinct[e.b] as Entry;
      return {
        a: at.get(e.a) as number,
        b: at.get(e.b) as number,
        score: Math.floor(e.score * 100) / 100,
        diff: diffMemory(
          { title: a.m.title, enabled: a.m.enabled, text: a.m.text },
          { title: b.m.title, enabled: b.m.enabled, text: b.m.text },
        ),
      };
    });
    const refs = members.map((m) => (distinct[m] as Entry).ref);
    out.push({ kind: "near", memories: refs, pairs, sameChat: reachSameChat(refs) });
  }
  return out;
}

function offTooLong(entries: Entry[], offDays: number, now: number): LintFinding[] {
  const out: LintFinding[] = [];
  for (const { m, ref } of entries) {
    const since = m.updated ?? m.created;
    if (m.enabled || since === undefined) continue;
    const t = Date.parse(since);
    if (!Number.isFinite(t)) continue;
    const days = Math.floor((now - t) / DAY_MS);
    if (days > offDays) out.push({ kind: "off", memory: ref, since, days });
  }
  return out;
}

function nearLimits(entries: Entry[], limits: Limits): LintFinding[] {
  const out: LintFinding[] = [];
  for (const { m, ref } of entries) {
    for (const [limit, value] of [
      ["titleMaxChars", m.titleChars],
      ["textMaxChars", m.textChars],
      ["fileMaxBytes", m.bytes],
    ] as const) {
      const max = limits[limit];
      if (value > max * NEAR_LIMIT_SHARE) out.push({ kind: "limit", memory: ref, limit, value, max });
    }
  }
  return out;
}

/** Code points of a set's part of a payload: its sendable blocks (`## title\ntext`) joined by one empty line. */
function partOf(set: MemorySet | undefined): { points: number; sent: MemorySummary[] } {
  const sent = set?.memories.filter((m) => m.enabled) ?? [];
  let points = 0;
  for (const m of sent) points += m.titleChars + m.textChars + 4;
  return { points: sent.length ? points + 2 * (sent.length - 1) : 0, sent };
}

/** Each chat's payload in the sets read (the global set's chats too, when read), over 80% of chatMaxTokens. */
function budgets(sets: MemorySet[], limits: Limits, costliest: number): LintFinding[] {
  const globalSet = sets.find((s) => s.workspace === null);
  const g = partOf(globalSet);
  const out: LintFinding[] = [];
  const limit = limits.chatMaxTokens;
  const check = (workspace: string | null, points: number, sent: MemorySummary[]) => {
    const tokens = Math.ceil(points / 4);
    if (tokens <= limit * NEAR_LIMIT_SHARE) return;
    const top = [...sent].sort((a, b) => b.tokens - a.tokens || (a.id < b.id ? -1 : 1)).slice(0, costliest);
    out.push({ kind: "budget", workspace, tokens, limit, costliest: top.map(refOf) });
  };
  if (globalSet) check(null, g.points, g.sent);
  for (const s of sets) {
    if (s.workspace === null) continue;
    const w = partOf(s);
    const points = g.points && w.points ? g.points + 2 + w.points : g.points + w.points;
    check(s.workspace, points, [...g.sent, ...w.sent]);
  }
  return out;
}
