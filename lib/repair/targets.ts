import { join } from "node:path";
import { locateChat } from "../chats/folder";
import { logFolderOf } from "../chats/settings";
import { OdaError } from "../errors";
import { HOME_LOCK_REPAIR } from "../fs/home-lock";
import { assertMemoryId, assertWorkspace } from "../memory/names";
import { requireRoot } from "../roots";
import { planArchive, planForm, planSetAsideCopy } from "./chat-plans";
import { type RepairPlan, runRepair } from "./engine";
import { readOdaFile } from "./files";
import type { Journal, RepairKind, RepairLock } from "./journal";

/** The folders a repair works on. */
export interface RepairRoots {
  home: string | null;
  logs: string | null;
  /** The admin state, where journals and original files are kept. */
  state: string;
}

/**
 * What to repair. The text form (`repair apply <id>`) is `form:<chat>`,
 * `duplicate:<chat>` (with the copy to set aside), `archive:<chat>`,
 * `memory:global/<id>` or `memory:workspaces/<key>/<id>`.
 */
export type RepairTarget =
  | { kind: "form"; chat: string }
  | { kind: "duplicate"; chat: string; setAside?: string }
  | { kind: "archive"; chat: string; generations?: string[] }
  | { kind: "memory"; workspace: string | null; memory: string }
  /** `lock:memory-history`: the home's memory lock, set aside (`home-lock.ts`), outside the journal engine. */
  | { kind: "lock" };

/** Reads a repair id such as `form:c-1` or `memory:global/0a1b2c3d`. */
export function parseTarget(text: string): RepairTarget {
  const colon = text.indexOf(":");
  const kind = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (colon > 0 && rest && (kind === "form" || kind === "duplicate" || kind === "archive")) return { kind, chat: rest };
  if (text === HOME_LOCK_REPAIR) return { kind: "lock" };
  if (kind === "memory") {
    const parts = rest.split("/");
    const memory = parts.pop() ?? "";
    const workspace = parts[0] === "global" && parts.length === 1 ? null : parts[0] === "workspaces" ? parts[1] : "";
    if (workspace !== "" && workspace !== undefined && parts.length === (workspace === null ? 1 : 2)) {
      assertWorkspace(workspace);
      assertMemoryId(memory);
      return { kind, workspace, memory };
    }
  }
  throw new OdaError("bad_input", `"${text}" is not a repair id; run oda-admin repair list to see them.`);
}

/** The text form of a target (its id in `repair list`). */
export function targetId(target: RepairTarget): string {
  if (target.kind === "lock") return HOME_LOCK_REPAIR;
  if (target.kind !== "memory") return `${target.kind}:${target.chat}`;
  return `memory:${memorySubject(target.workspace, target.memory)}`;
}

function memorySubject(workspace: string | null, id: string): string {
  return workspace === null ? `global/${id}` : `workspaces/${workspace}/${id}`;
}

function needLogs(roots: RepairRoots): string {
  return requireRoot(roots, "logs");
}

function needHome(roots: RepairRoots): string {
  return requireRoot(roots, "home");
}

/** Set aside a problem memory file: moved into the admin state, so it is no longer in the set. */
async function planMemory(home: string, workspace: string | null, id: string): Promise<RepairPlan> {
  const set = workspace === null ? ["memory", "global"] : ["memory", "workspaces", workspace];
  const path = join(home, ...set, id);
  const before = readOdaFile(path);
  if (!before) throw new OdaError("not_found", `No memory file memory/${memorySubject(workspace, id)} exists.`);
  return {
    summary: `Set aside the memory file ${[...set, id].join("/")}: it leaves the set and is kept in the admin state.`,
    files: [{ path, before, after: null }],
  };
}

interface Resolved {
  kind: RepairKind;
  subject: string;
  lock: RepairLock;
  plan: () => Promise<RepairPlan>;
}

function resolve(roots: RepairRoots, target: RepairTarget): Resolved {
  if (target.kind === "lock")
    throw new OdaError("bad_input", `${HOME_LOCK_REPAIR} is applied by setAsideHomeLock, not the repair engine.`);
  if (target.kind === "memory") {
    const home = needHome(roots);
    return {
      kind: "memory",
      subject: memorySubject(target.workspace, target.memory),
      lock: { type: "memory", home },
      plan: () => planMemory(home, target.workspace, target.memory),
    };
  }
  const logs = needLogs(roots);
  const compress = logFolderOf(roots).compress;
  const chat = target.chat;
  if (target.kind === "duplicate") {
    if (!target.setAside)
      throw new OdaError("bad_input", `Choose which copy of chat "${chat}" to set aside (--set-aside FOLDER).`);
    const dir = target.setAside;
    return {
      kind: "duplicate",
      subject: chat,
      lock: { type: "chat", id: chat, dir },
      plan: () => planSetAsideCopy(logs, chat, dir),
    };
  }
  // locateChat refuses a chat stored in two places: its only repair is `duplicate`
  const dir = locateChat(logs, chat).dir;
  const plan =
    target.kind === "form"
      ? () => planForm(logs, chat, compress)
      : () => planArchive(logs, chat, compress, target.generations);
  return { kind: target.kind, subject: chat, lock: { type: "chat", id: chat, dir }, plan };
}

/** One change a repair will make, for the preview. */
export interface PreviewChange {
  action: "replace" | "create" | "move to the admin state" | "remove the emptied folder";
  path: string;
  bytes: number;
}

/** What a repair will do, before the user confirms it. */
export interface RepairPreview {
  id: string;
  summary: string;
  changes: PreviewChange[];
}

/** Plans a repair without writing anything: exactly which files it will change, move or create. */
export async function previewRepair(roots: RepairRoots, target: RepairTarget): Promise<RepairPreview> {
  const plan = await resolve(roots, target).plan();
  const changes: PreviewChange[] = plan.files.map((f) => ({
    action: f.before && f.after ? "replace" : f.after ? "create" : "move to the admin state",
    path: f.path,
    bytes: (f.after ?? f.before)?.length ?? 0,
  }));
  for (const dir of plan.dirs?.remove ?? []) changes.push({ action: "remove the emptied folder", path: dir, bytes: 0 });
  return { id: targetId(target), summary: plan.summary, changes };
}

/** Applies a repair under its lock; returns the finished journal. */
export async function applyRepair(roots: RepairRoots, target: RepairTarget): Promise<Journal> {
  const r = resolve(roots, target);
  return runRepair({ state: roots.state, kind: r.kind, subject: r.subject, lock: r.lock, plan: r.plan });
}
