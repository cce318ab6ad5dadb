import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ChatSummary } from "../chats/chat";
import { listAllChats } from "../chats/list";
import { readCompressSetting } from "../chats/settings";
import { type DiffLine, diffMemory, type FieldChange } from "../diff/memory-diff";
import type { DoctorReport } from "../doctor";
import { OdaError } from "../errors";
import { listSet, type MemorySummary } from "../memory/list-set";
import { listWorkspaces } from "../memory/listing-cache";
import { plural } from "../words";
import { type Manifest, ZManifest } from "./manifest";
import { type ExpansionLimits, readBundle } from "./read";

/**
 * Two bundles of one installation compared (issue 26: before and after a fix):
 * chats added, removed, grown and shrunk; problems that appeared and went away
 * (from each bundle's own doctor report, made on the machine it came from);
 * memories added, removed and changed, with the word-level diff the memory
 * history shows; settings changed, key by key. Each side is a bundle file
 * (checked and unpacked into a temporary folder, removed afterwards) or a
 * folder a bundle was unpacked into.
 */

/** One side of the comparison, as the report names it. */
export interface DiffSideInfo {
  /** The file or folder as given. */
  source: string;
  createdAt: string;
  odaAdminVersion: string;
  chats: number;
  memories: number;
}

/** A chat on one side only. */
export interface ChatRef {
  id: string;
  folder: string;
  title: string | null;
  messages: number;
  bytes: number;
}

/** A chat in both bundles whose log changed. */
export interface ChatChange {
  id: string;
  folder: string;
  title: string | null;
  before: { messages: number; bytes: number; inputTokens: number; outputTokens: number };
  after: { messages: number; bytes: number; inputTokens: number; outputTokens: number };
}

/** One doctor problem, with the report's section ("memory" or "chat logs"). */
export interface DiffProblem {
  section: string;
  path: string;
  message: string;
  line?: number;
}

/** A memory of one set; `set` is "global" or the workspace key. */
export interface MemoryRef {
  set: string;
  id: string;
  title: string;
  enabled: boolean;
}

/** A memory in both bundles that changed: its fields and the text's line diff with word highlights. */
export interface MemoryChange extends MemoryRef {
  fields: FieldChange[];
  lines: DiffLine[];
  added: number;
  removed: number;
}

/** A settings key whose value differs; `null` where the key is absent. */
export interface SettingChange {
  key: string;
  before: unknown;
  after: unknown;
}

/** `oda-admin bundle diff A B --json`. */
export interface BundleDiff {
  a: DiffSideInfo;
  b: DiffSideInfo;
  chats: { added: ChatRef[]; removed: ChatRef[]; grown: ChatChange[]; shrunk: ChatChange[]; same: number };
  problems: { appeared: DiffProblem[]; gone: DiffProblem[]; kept: number };
  memories: { added: MemoryRef[]; removed: MemoryRef[]; changed: MemoryChange[]; same: number };
  settings: { changed: SettingChange[] };
  /** What one bundle holds and the other does not (a bundle made without --memory has no memories to compare). */
  notes: string[];
}

/** An unpacked bundle: `dir` holds manifest.json, doctor.json, home/ and logs/. */
interface Tree {
  source: string;
  dir: string;
  manifest: Manifest;
}

/** The folder of an unpacked bundle: the bundle's own files, or a dashboard state folder holding them in `bundle/`. */
function unpackedDir(path: string): string | null {
  if (existsSync(join(path, "manifest.json"))) return path;
  if (existsSync(join(path, "bundle", "manifest.json"))) return join(path, "bundle");
  return null;
}

async function openSide(source: string, scratch: string, name: string, limits: ExpansionLimits): Promise<Tree> {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(source);
  } catch {
    throw new OdaError("not_found", `${source} does not exist; give a bundle file or an unpacked bundle's folder.`);
  }
  if (st.isDirectory()) {
    const dir = unpackedDir(source);
    if (!dir) throw new OdaError("bad_input", `${source} is a folder without a bundle's manifest.json in it.`);
    let manifest: Manifest;
    try {
      manifest = ZManifest.parse(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")));
    } catch {
      throw new OdaError("unusable", `${join(dir, "manifest.json")} is not a bundle's manifest.`);
    }
    return { source, dir, manifest };
  }
  const dir = join(scratch, name);
  const manifest = await readBundle(source, dir, { ...limits, freeIn: scratch });
  return { source, dir, manifest };
}

function readDoctor(tree: Tree): DoctorReport | null {
  const path = join(tree.dir, "doctor.json");
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, "utf8")) as DoctorReport;
  } catch {
    return null;
  }
}

const problemKey = (p: DiffProblem) => JSON.stringify([p.section, p.path, p.message, p.line ?? null]);

function problemsOf(report: DoctorReport | null): DiffProblem[] {
  if (!report) return [];
  return report.sections.flatMap((s) =>
    s.problems.map((p) => ({
      section: s.name,
      path: p.path,
      message: p.message,
      ...(p.line === undefined ? {} : { line: p.line }),
    })),
  );
}

/** Each problem of `after` not in `before` (as many times as it is missing: the same sentence can stand twice). */
function minus(after: DiffProblem[], before: DiffProblem[]): DiffProblem[] {
  const left = new Map<string, number>();
  for (const p of before) left.set(problemKey(p), (left.get(problemKey(p)) ?? 0) + 1);
  const out: DiffProblem[] = [];
  for (const p of after) {
    const k = problemKey(p);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(p);
  }
  return out;
}

const storedBytes = (c: ChatSummary) => c.generations.reduce((n, g) => n + g.bytes, 0);
// A chat stored in two places is two entries: its folder tells them apart.
const chatKey = (c: ChatSummary) => `${c.id}\u0000${c.folder}`;

const chatRef = (c: ChatSummary): ChatRef => ({
  id: c.id,
  folder: c.folder,
  title: c.title,
  messages: c.messages,
  bytes: storedBytes(c),
});

const chatState = (c: ChatSummary) => ({
  messages: c.messages,
  bytes: storedBytes(c),
  inputTokens: c.inputTokens,
  outputTokens: c.outputTokens,
});

async function chatsOf(tree: Tree): Promise<ChatSummary[]> {
  const logs = join(tree.dir, "logs");
  if (!existsSync(logs)) return [];
  const home = join(tree.dir, "home");
  return (await listAllChats(logs, { compress: readCompressSetting(existsSync(home) ? home : null) })).chats;
}

function compareChats(before: ChatSummary[], after: ChatSummary[]): BundleDiff["chats"] {
  const old = new Map(before.map((c) => [chatKey(c), c]));
  const result: BundleDiff["chats"] = { added: [], removed: [], grown: [], shrunk: [], same: 0 };
  for (const c of after) {
    const was = old.get(chatKey(c));
    old.delete(chatKey(c));
    if (!was) {
      result.added.push(chatRef(c));
      continue;
    }
    const b = chatState(was);
    const a = chatState(c);
    const change: ChatChange = { id: c.id, folder: c.folder, title: c.title, before: b, after: a };
    if (a.bytes > b.bytes || a.messages > b.messages) result.grown.push(change);
    else if (a.bytes < b.bytes || a.messages < b.messages) result.shrunk.push(change);
    else result.same += 1;
  }
  result.removed = [...old.values()].map(chatRef);
  const byId = (x: { id: string; folder: string }, y: { id: string; folder: string }) =>
    x.id < y.id ? -1 : x.id > y.id ? 1 : x.folder < y.folder ? -1 : x.folder > y.folder ? 1 : 0;
  for (const list of [result.added, result.removed, result.grown, result.shrunk]) list.sort(byId);
  return result;
}

async function memoriesOf(tree: Tree): Promise<Map<string, MemorySummary>> {
  const home = join(tree.dir, "home");
  const found = new Map<string, MemorySummary>();
  if (!existsSync(join(home, "memory"))) return found;
  for (const key of [null, ...(await listWorkspaces(home))]) {
    const set = await listSet(home, key);
    for (const m of set.memories) found.set(`${key ?? "global"}/${m.id}`, m);
  }
  return found;
}

const memoryRef = (m: MemorySummary): MemoryRef => ({
  set: m.workspace ?? "global",
  id: m.id,
  title: m.title,
  enabled: m.enabled,
});

function compareMemories(
  before: Map<string, MemorySummary>,
  after: Map<string, MemorySummary>,
): BundleDiff["memories"] {
  const result: BundleDiff["memories"] = { added: [], removed: [], changed: [], same: 0 };
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  for (const key of keys) {
    const was = before.get(key);
    const now = after.get(key);
    if (!was && now) result.added.push(memoryRef(now));
    else if (was && !now) result.removed.push(memoryRef(was));
    else if (was && now) {
      const diff = diffMemory(
        { title: was.title, enabled: was.enabled, text: was.text },
        { title: now.title, enabled: now.enabled, text: now.text },
      );
      if (diff.fields.length === 0 && diff.added === 0 && diff.removed === 0) result.same += 1;
      else
        result.changed.push({
          ...memoryRef(now),
          fields: diff.fields,
          lines: diff.inline,
          added: diff.added,
          removed: diff.removed,
        });
    }
  }
  return result;
}

/** `settings.json` as dotted keys and leaf values; a file that is not a JSON object is one key, its text. */
function settingsOf(tree: Tree): Map<string, unknown> {
  const path = join(tree.dir, "home", "settings.json");
  const flat = new Map<string, unknown>();
  if (!existsSync(path)) return flat;
  const text = readFileSync(path, "utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    flat.set("settings.json", text);
    return flat;
  }
  const walk = (v: unknown, prefix: string) => {
    if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) walk(child, prefix ? `${prefix}.${k}` : k);
    } else flat.set(prefix || "settings.json", v);
  };
  walk(value, "");
  return flat;
}

function compareSettings(before: Map<string, unknown>, after: Map<string, unknown>): SettingChange[] {
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys
    .filter((k) => JSON.stringify(before.get(k) ?? null) !== JSON.stringify(after.get(k) ?? null))
    .map((k) => ({ key: k, before: before.get(k) ?? null, after: after.get(k) ?? null }));
}

function sideInfo(tree: Tree): DiffSideInfo {
  return {
    source: tree.source,
    createdAt: tree.manifest.createdAt,
    odaAdminVersion: tree.manifest.odaAdminVersion,
    chats: tree.manifest.counts.chats,
    memories: tree.manifest.counts.memories,
  };
}

/** Compares two unpacked bundles. */
async function compareTrees(a: Tree, b: Tree): Promise<BundleDiff> {
  const notes: string[] = [];
  const [chatsA, chatsB] = await Promise.all([chatsOf(a), chatsOf(b)]);
  const [memA, memB] = await Promise.all([memoriesOf(a), memoriesOf(b)]);
  if (a.manifest.scope.memory !== b.manifest.scope.memory)
    notes.push(
      `Only ${a.manifest.scope.memory ? "the first" : "the second"} bundle holds the memory sets (made with --memory); its memories show as ${a.manifest.scope.memory ? "removed" : "added"}.`,
    );
  const scopeOf = (m: Manifest) => (m.scope.chats === "all" ? "all" : JSON.stringify(m.scope.chats));
  if (scopeOf(a.manifest) !== scopeOf(b.manifest) || a.manifest.scope.since !== b.manifest.scope.since)
    notes.push(
      "The bundles were made with different chat choices: a chat one of them left out shows as added or removed.",
    );
  if (JSON.stringify(a.manifest.scope.redact) !== JSON.stringify(b.manifest.scope.redact))
    notes.push("The bundles were redacted differently: the same value may read differently in each.");
  const problemsA = problemsOf(readDoctor(a));
  const problemsB = problemsOf(readDoctor(b));
  const appeared = minus(problemsB, problemsA);
  return {
    a: sideInfo(a),
    b: sideInfo(b),
    chats: compareChats(chatsA, chatsB),
    problems: { appeared, gone: minus(problemsA, problemsB), kept: problemsB.length - appeared.length },
    memories: compareMemories(memA, memB),
    settings: { changed: compareSettings(settingsOf(a), settingsOf(b)) },
    notes,
  };
}

/**
 * Compares bundle `a` (before) with bundle `b` (after). Files are checked and
 * unpacked below `scratchIn` (the system's temporary folder by default) and
 * removed when the comparison is made, whatever happens.
 */
export async function diffBundles(
  a: string,
  b: string,
  options: ExpansionLimits & { scratchIn?: string } = {},
): Promise<BundleDiff> {
  const scratch = await mkdtemp(join(options.scratchIn ?? tmpdir(), "oda-bundle-diff-"));
  try {
    const left = await openSide(a, scratch, "a", options);
    const right = await openSide(b, scratch, "b", options);
    return await compareTrees(left, right);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

const fmt = (n: number) => n.toLocaleString("en-US");
const show = (v: unknown) => (v === null ? "(not set)" : JSON.stringify(v));

/** The comparison as a person reads it. */
export function formatBundleDiff(d: BundleDiff): string {
  const out: string[] = [
    `Before: ${d.a.source} (bundle of ${d.a.createdAt}, Oda Admin ${d.a.odaAdminVersion})`,
    `After:  ${d.b.source} (bundle of ${d.b.createdAt}, Oda Admin ${d.b.odaAdminVersion})`,
    ...d.notes.map((n) => `Note: ${n}`),
    "",
  ];
  const c = d.chats;
  out.push(
    `Chats: ${c.added.length} added, ${c.removed.length} removed, ${c.grown.length} grown, ${c.shrunk.length} shrunk, ${c.same} unchanged.`,
  );
  const name = (x: { id: string; title: string | null }) => (x.title ? `${x.id} "${x.title}"` : x.id);
  for (const x of c.added) out.push(`  + ${name(x)}: ${plural(x.messages, "message")}, ${fmt(x.bytes)} bytes`);
  for (const x of c.removed) out.push(`  - ${name(x)}: ${plural(x.messages, "message")}, ${fmt(x.bytes)} bytes`);
  for (const x of [...c.grown, ...c.shrunk])
    out.push(
      `  ~ ${name(x)}: ${fmt(x.before.messages)} → ${fmt(x.after.messages)} messages, ${fmt(x.before.bytes)} → ${fmt(x.after.bytes)} bytes, ${fmt(x.before.inputTokens + x.before.outputTokens)} → ${fmt(x.after.inputTokens + x.after.outputTokens)} tokens`,
    );
  const p = d.problems;
  out.push("", `Problems: ${p.appeared.length} appeared, ${p.gone.length} went away, ${p.kept} still there.`);
  const where = (x: DiffProblem) => `${x.section}: ${x.path}${x.line === undefined ? "" : `, line ${x.line}`}`;
  for (const x of p.appeared) out.push(`  + ${where(x)}: ${x.message}`);
  for (const x of p.gone) out.push(`  - ${where(x)}: ${x.message}`);
  const m = d.memories;
  out.push(
    "",
    `Memories: ${m.added.length} added, ${m.removed.length} removed, ${m.changed.length} changed, ${m.same} unchanged.`,
  );
  const mem = (x: MemoryRef) => `${x.set}/${x.id} "${x.title}"`;
  for (const x of m.added) out.push(`  + ${mem(x)}${x.enabled ? "" : " (off)"}`);
  for (const x of m.removed) out.push(`  - ${mem(x)}`);
  for (const x of m.changed) {
    out.push(`  ~ ${mem(x)}`);
    for (const f of x.fields) out.push(`      ${f.field}: ${show(f.old)} → ${show(f.new)}`);
    for (const l of x.lines) if (l.kind !== "same") out.push(`      ${l.kind === "added" ? "+" : "-"} ${l.text}`);
  }
  out.push("", `Settings: ${plural(d.settings.changed.length, "key")} changed.`);
  for (const s of d.settings.changed) out.push(`  ~ ${s.key}: ${show(s.before)} → ${show(s.after)}`);
  return out.join("\n");
}
