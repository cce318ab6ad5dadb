import { randomBytes } from "node:crypto";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { OdaError } from "../errors";
import { realRootOf } from "../fs";
import { type BulkRecord, type BulkStep, readBulkRecord, runBulk } from "./bulk-journal";
import { freeId } from "./change";
import { checkTitleAndText, countCodePoints, serialiseMemoryFile } from "./format";
import { chatPlace } from "./fullest";
import { compactMoment, listVersionNames, readRegularFile } from "./history";
import type { Limits } from "./limits";
import { MESSAGES } from "./messages";
import { type Current, loadCurrent, withMemoryLock } from "./mutate";
import { checkMemoryId, checkWorkspace, type MemoryId, type WorkspaceKey } from "./names";
import { decodeUtf8, parseMemorySource } from "./parse";
import { placeMemory } from "./paths";
import { sha256Hex } from "./read-file";
import { type SetSize, setSize, workspaceSizes } from "./set-sizes";
import { readSettings } from "./settings";
import { requireWorkspaceSet } from "./workspace-set";

/**
 * Bulk changes (docs/file-contract.md, Bulk changes): many memories turned on
 * or off, deleted, restored from Recently deleted, or moved to another set,
 * all or nothing under the memory lock. Every memory is read and every rule
 * checked first; one broken rule refuses the whole change with every reason
 * (the contract's sentences, each with its memory or chat) and nothing is
 * written. Then each memory is changed as a single change would change it
 * (one version each), through a journal a kill cannot split
 * (`bulk-journal.ts`). {@link undoBulk} puts every memory back in one go.
 */

/** A memory a bulk change names. */
export interface BulkTarget {
  workspace: string | null;
  id: string;
}

/** What a bulk change does to each memory it names. */
export type BulkAction =
  | { kind: "on" }
  | { kind: "off" }
  | { kind: "delete" }
  | { kind: "restore" }
  | { kind: "move"; to: string | null };

/** What a bulk change did. `bulkId` (null when nothing changed) is what {@link undoBulk} takes. */
export interface BulkResult {
  bulkId: string | null;
  /** Memories changed; a moved memory's new place in `to`. */
  changed: (BulkTarget & { to?: BulkTarget })[];
  /** Memories left as they were, each with the sentence saying why (already off, …). */
  unchanged: (BulkTarget & { message: string })[];
}

type Reason = { workspace: string | null; id: string | null; message: string };

/** A target whose names were checked at the bulk change's entry. */
interface CheckedTarget {
  workspace: WorkspaceKey;
  id: MemoryId;
}
type CheckedAction = Exclude<BulkAction, { kind: "move" }> | { kind: "move"; to: WorkspaceKey };

const key = (t: BulkTarget) => `${t.workspace ?? ""}/${t.id}`;

function refuse(reasons: Reason[]): never {
  const lines = reasons.map((r) =>
    r.id ? `${r.id}${r.workspace ? ` (workspace ${r.workspace})` : ""}: ${r.message}` : r.message,
  );
  throw new OdaError(
    "refused",
    reasons.length === 1
      ? (lines[0] as string)
      : `Nothing was changed, for ${reasons.length} reasons:\n${lines.join("\n")}`,
    { data: { reasons } },
  );
}

interface Plan {
  steps: BulkStep[];
  changed: BulkResult["changed"];
  unchanged: BulkResult["unchanged"];
  reasons: Reason[];
}

function stepOf(
  t: BulkTarget,
  current: Current | null,
  next: string | null,
  title: string,
  source: BulkStep["source"],
): BulkStep {
  return {
    workspace: t.workspace,
    id: t.id,
    before: current ? Buffer.from(current.bytes).toString("base64") : null,
    beforeSha: current?.sha256 ?? null,
    next,
    nextSha: next === null ? null : sha256Hex(Buffer.from(next, "utf8")),
    title,
    source,
  };
}

/** Refusals of a new file's fields and size (the single change's rules). */
function fileReasons(t: BulkTarget, title: string, text: string, raw: string, limits: Limits): Reason[] {
  const out: Reason[] = checkTitleAndText(title, text, limits).map((p) => ({ ...t, message: p.message }));
  if (Buffer.byteLength(raw, "utf8") > limits.fileMaxBytes)
    out.push({ ...t, message: MESSAGES.couldNotChange(MESSAGES.fileTooLarge(limits.fileMaxBytes)) });
  return out;
}

/** Plans one memory's part of a bulk change. */
async function planOne(
  home: string,
  t: CheckedTarget,
  action: CheckedAction,
  limits: Limits,
  now: string,
  plan: Plan,
  taken: Set<string>,
): Promise<void> {
  const place = await placeMemory(home, t.workspace, t.id);
  const current = await loadCurrent(place, limits);
  const reason = (message: string): void => {
    plan.reasons.push({ ...t, message });
  };
  if (action.kind === "restore") {
    if (current) return reason(MESSAGES.couldNotChange("it is not deleted."));
    const newest = (await listVersionNames(place.history))[0];
    const bytes = newest ? await readRegularFile(join(place.history, newest.name)).catch(() => null) : null;
    const raw = bytes ? decodeUtf8(bytes) : null;
    if (raw === null) return reason(MESSAGES.noMemory(t.id));
    const parsed = parseMemorySource(raw);
    if (!parsed.ok) return reason(MESSAGES.couldNotChange(parsed.message));
    const next = serialiseMemoryFile({ ...parsed.fields, updated: now }, parsed.text);
    const problems = fileReasons(t, parsed.title, parsed.text, next, limits);
    if (problems.length) return void plan.reasons.push(...problems);
    plan.steps.push(stepOf(t, null, next, "", "restore"));
    plan.changed.push(t);
    return;
  }
  if (!current) return reason(MESSAGES.noMemory(t.id));
  const parse = current.parse;
  if (action.kind === "delete") {
    plan.steps.push(stepOf(t, current, null, parse.ok ? parse.title : "", "settings"));
    plan.changed.push(t);
    return;
  }
  if (action.kind === "off" && !parse.ok) return void plan.unchanged.push({ ...t, message: MESSAGES.alreadyOff });
  if (!parse.ok) return reason(MESSAGES.hasProblem(parse.message));
  const f = parse.fields;
  if (action.kind === "on" || action.kind === "off") {
    const enabled = action.kind === "on";
    if (f.enabled === enabled)
      return void plan.unchanged.push({ ...t, message: enabled ? MESSAGES.alreadyOn : MESSAGES.alreadyOff });
    const next = serialiseMemoryFile({ ...f, enabled, updated: now }, parse.text);
    if (enabled) {
      const problems = fileReasons(t, parse.title, parse.text, next, limits);
      if (problems.length) return void plan.reasons.push(...problems);
    }
    plan.steps.push(stepOf(t, current, next, "", "settings"));
    plan.changed.push(t);
    return;
  }
  // move
  if (action.to === t.workspace)
    return void plan.unchanged.push({ ...t, message: MESSAGES.couldNotChange("it is already in that set.") });
  let id = t.id;
  const free = async (candidate: MemoryId) => {
    if (taken.has(`${action.to ?? ""}/${candidate}`)) return false;
    const p = await placeMemory(home, action.to, candidate);
    const exists = await Promise.all(
      [lstat(p.file), lstat(p.history)].map((x) =>
        x.then(
          () => true,
          () => false,
        ),
      ),
    );
    return !exists.some(Boolean);
  };
  while (!(await free(id))) id = await freeId(home, action.to);
  taken.add(`${action.to ?? ""}/${id}`);
  const to = { workspace: action.to, id };
  const next = serialiseMemoryFile({ ...f, updated: now }, parse.text);
  plan.steps.push(stepOf(t, current, null, parse.title, "settings"));
  plan.steps.push(stepOf(to, null, next, "", "settings"));
  plan.changed.push({ ...t, to });
}

/** The code points of a set's payload part. */
const part = (blocks: number, count: number) => (count ? blocks + 2 * (count - 1) : 0);
const joined = (a: number, b: number) => (a && b ? a + 2 + b : a + b);

/** The block (`## title\ntext`) a file's text puts in a payload; null when it is not sent. */
function blockOf(raw: string | null): number | null {
  if (raw === null) return null;
  const p = parseMemorySource(raw);
  return p.ok && p.fields.enabled ? countCodePoints(p.title) + countCodePoints(p.text) + 4 : null;
}

/**
 * Every chat the steps together would take over chatMaxTokens (a chat already
 * over the limit only if it grows), as the single change's sentence.
 */
async function budgetReasons(home: string, steps: BulkStep[], limits: Limits): Promise<Reason[]> {
  const realHome = realRootOf(home);
  const [global, workspaces] = await Promise.all([
    setSize(home, null, limits, realHome),
    workspaceSizes(home, limits, realHome),
  ]);
  const sizes = new Map<string | null, SetSize>([[null, global], ...workspaces.map((w) => [w.key, w.size] as const)]);
  const after = new Map<string | null, { blocks: number; count: number }>();
  for (const [k, s] of sizes) after.set(k, { blocks: s.blocks, count: s.count });
  for (const step of steps) {
    const size = sizes.get(step.workspace);
    const a = after.get(step.workspace);
    if (!size || !a) continue;
    const old = size.byId.get(step.id);
    const next = blockOf(step.next);
    a.blocks += (next ?? 0) - (old ?? 0);
    a.count += (next === null ? 0 : 1) - (old === undefined ? 0 : 1);
  }
  const limit = limits.chatMaxTokens;
  const gBefore = part(global.blocks, global.count);
  const gA = after.get(null) as { blocks: number; count: number };
  const gAfter = part(gA.blocks, gA.count);
  const reasons: Reason[] = [];
  const check = (where: string | null, before: number, now: number) => {
    const tokens = Math.ceil(now / 4);
    if (tokens > limit && now > before)
      reasons.push({ workspace: where, id: null, message: MESSAGES.overTokens(chatPlace(where), tokens, limit) });
  };
  check(null, gBefore, gAfter);
  for (const { key: k, size } of workspaces) {
    const a = after.get(k) as { blocks: number; count: number };
    check(k, joined(gBefore, part(size.blocks, size.count)), joined(gAfter, part(a.blocks, a.count)));
  }
  return reasons;
}

const newBulkId = (now: string) => `${compactMoment(now)}-${randomBytes(3).toString("hex")}`;

async function execute(
  home: string,
  limits: Limits,
  lock: Parameters<Parameters<typeof withMemoryLock>[1]>[0],
  plan: Plan,
  action: string,
  now: string,
): Promise<BulkResult> {
  // the budget of what would change, with the memories that could be planned: every reason at once
  plan.reasons.push(...(await budgetReasons(home, plan.steps, limits)));
  if (plan.reasons.length) refuse(plan.reasons);
  if (!plan.steps.length) return { bulkId: null, changed: [], unchanged: plan.unchanged };
  const record: BulkRecord = { bulkId: newBulkId(now), at: now, action, steps: plan.steps };
  const skipped = await runBulk(home, limits, lock, record);
  const lost = new Set(skipped.map(key));
  return {
    bulkId: record.bulkId,
    changed: plan.changed.filter((c) => !lost.has(key(c))),
    unchanged: [
      ...plan.unchanged,
      ...plan.changed.filter((c) => lost.has(key(c))).map((c) => ({ ...c, message: MESSAGES.conflict })),
    ],
  };
}

/** Applies `action` to every target, all or nothing (see the module comment). */
export async function bulkChange(
  home: string,
  targets: BulkTarget[],
  action: BulkAction,
  options: { now?: () => Date } = {},
): Promise<BulkResult> {
  // The names are checked here, once: everything below takes them as checked.
  const checkedTargets = targets.map((t) => ({ workspace: checkWorkspace(t.workspace), id: checkMemoryId(t.id) }));
  const checkedAction: CheckedAction =
    action.kind === "move" ? { kind: "move", to: checkWorkspace(action.to) } : action;
  if (checkedAction.kind === "move") await requireWorkspaceSet(home, checkedAction.to);
  const unique = [...new Map(checkedTargets.map((t) => [key(t), t])).values()];
  if (!unique.length) throw new OdaError("bad_input", "Give at least one memory.");
  const { limits } = await readSettings(home);
  return withMemoryLock(home, async (lock) => {
    const now = (options.now?.() ?? new Date()).toISOString();
    const plan: Plan = { steps: [], changed: [], unchanged: [], reasons: [] };
    const taken = new Set<string>();
    for (const t of unique) await planOne(home, t, checkedAction, limits, now, plan, taken);
    return execute(home, limits, lock, plan, action.kind, now);
  });
}

/**
 * Puts back every memory a bulk change changed, all or nothing: refused whole
 * if any of them changed since, or if turning memories back on would break
 * the token budget. The undo is itself a bulk change (and can be undone).
 */
export async function undoBulk(home: string, bulkId: string, options: { now?: () => Date } = {}): Promise<BulkResult> {
  const { limits } = await readSettings(home);
  return withMemoryLock(home, async (lock) => {
    const record = await readBulkRecord(home, bulkId);
    if (!record) throw new OdaError("not_found", `No bulk change "${String(bulkId).slice(0, 80)}" is kept to undo.`);
    const now = (options.now?.() ?? new Date()).toISOString();
    const plan: Plan = { steps: [], changed: [], unchanged: [], reasons: [] };
    for (const step of [...record.steps].reverse()) {
      // A step read back from the record on disk: its names are checked like any other input.
      const t = { workspace: checkWorkspace(step.workspace), id: checkMemoryId(step.id) };
      const current = await loadCurrent(await placeMemory(home, t.workspace, t.id), limits);
      if ((current?.sha256 ?? null) !== step.nextSha) {
        plan.reasons.push({ ...t, message: MESSAGES.couldNotChange("it was changed after the change being undone.") });
        continue;
      }
      let next: string | null = null;
      if (step.before !== null) {
        const raw = Buffer.from(step.before, "base64").toString("utf8");
        const parsed = parseMemorySource(raw);
        // a file with a problem goes back byte for byte, as the person left it
        next = parsed.ok ? serialiseMemoryFile({ ...parsed.fields, updated: now }, parsed.text) : raw;
      }
      const title = current?.parse.ok ? current.parse.title : "";
      plan.steps.push(stepOf(t, current, next, title, "restore"));
      plan.changed.push(t);
    }
    return execute(home, limits, lock, plan, "undo", now);
  });
}
