import { readFile } from "node:fs/promises";
import { OdaError } from "../../lib/errors";
import {
  type BulkResult,
  type BulkTarget,
  bulkChange,
  type ChangeOptions,
  type ChangeResult,
  changeMemory,
  chatPayload,
  createMemory,
  deleteMemory,
  isMemoryId,
  listDeleted,
  listSet,
  listVersions,
  MESSAGES,
  readMemory,
  restoreDeleted,
  restoreVersion,
  SOURCE_WORDS,
  setEnabled,
  undoBulk,
  undoChatChange,
} from "../../lib/memory";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, emit, flagString } from "../context";
import { reportLeftOut } from "../left-out";

/** The Oda home, or a bad-input error telling how to give it. */
function homeOf(ctx: CommandContext): string {
  return requireRoot(ctx.roots, "home");
}

/** `--workspace KEY`, absent = the global set. */
function workspaceOf(ctx: CommandContext): string | null {
  return flagString(ctx, "workspace") ?? null;
}

function idOf(ctx: CommandContext): string {
  const id = ctx.args[0];
  if (id === undefined) throw new OdaError("bad_input", "Give the memory's id.");
  return id;
}

/** Several ids (`memory set ID… --off`): the targets in the `--workspace` set, or null for a single id. */
function manyIds(ctx: CommandContext): BulkTarget[] | null {
  if (ctx.args.length < 2) return null;
  const ws = workspaceOf(ctx);
  return ctx.args.map((id) => ({ workspace: ws, id }));
}

function printBulk(ctx: CommandContext, result: BulkResult, done: string): number {
  emit(ctx, { ok: true, ...result }, () => {
    const lines = [`${done} ${result.changed.length} of ${result.changed.length + result.unchanged.length} memories.`];
    for (const u of result.unchanged) lines.push(`  ${u.id}: ${u.message}`);
    for (const c of result.changed)
      if (c.to)
        lines.push(
          `  ${c.id} is now ${c.to.id} in ${c.to.workspace === null ? "global memory" : `workspace ${c.to.workspace}`}`,
        );
    if (result.bulkId) lines.push(`Undo all of it with: oda-admin memory undo --bulk ${result.bulkId}`);
    return lines.join("\n");
  });
  return 0;
}

function refuseWithMany(ctx: CommandContext, ...flags: string[]): void {
  for (const f of flags)
    if (ctx.flags[f] !== undefined) throw new OdaError("bad_input", `--${f} takes one memory id, not several.`);
}

function where(ctx: CommandContext): string {
  const ws = workspaceOf(ctx);
  return ws === null ? "global memory" : `workspace ${ws}`;
}

async function textOf(ctx: CommandContext): Promise<string | undefined> {
  const file = flagString(ctx, "text-file");
  if (file !== undefined) return file === "-" ? readStdin() : readFile(file, "utf8");
  return flagString(ctx, "text");
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function changeOptions(ctx: CommandContext): ChangeOptions {
  const o: ChangeOptions = {};
  const expect = flagString(ctx, "expect");
  if (expect !== undefined) o.expectedSha256 = expect;
  return o;
}

function printChange(ctx: CommandContext, result: ChangeResult, done: string): number {
  emit(ctx, { ok: true, ...result }, () => result.message ?? done);
  return 0;
}

const list: Command = async (ctx) => {
  const home = homeOf(ctx);
  const ws = workspaceOf(ctx);
  const [set, deleted] = await Promise.all([listSet(home, ws), listDeleted(home, ws)]);
  const unreadable = set.problems.filter((p) => p.unreadable).map((p) => `${p.path}: ${p.message}`);
  emit(ctx, { ok: true, ...set, deleted, leftOut: unreadable.length }, () => {
    const lines = [`${where(ctx)}: ${set.memories.length} memories, ${set.problems.length} problems`];
    for (const m of set.memories) {
      lines.push(
        `  ${m.id}  ${m.enabled ? "on " : "off"}  ${m.title}${m.author === "ai" ? "  (saved by the agent)" : ""}  ~${m.tokens} tokens`,
      );
    }
    for (const p of set.problems) lines.push(`  ${p.id}  problem: ${p.message}`);
    for (const d of deleted) lines.push(`  ${d.id}  deleted ${d.deletedAt}: ${d.title}`);
    return lines.join("\n");
  });
  // Each was printed above as a problem; the count says they are left out.
  return reportLeftOut(ctx, unreadable, { printed: true });
};

const show: Command = async (ctx) => {
  const m = await readMemory(homeOf(ctx), workspaceOf(ctx), idOf(ctx));
  emit(ctx, { ok: true, memory: m }, () =>
    m.ok
      ? `${m.title}\n${m.enabled ? "on" : "off"}, ${m.textChars} characters, ${m.bytes} bytes, ~${m.tokens} tokens, ${SOURCE_WORDS[m.state.source]} ${m.state.savedAt}\nsha256 ${m.sha256}\n\n${m.text}`
      : `${m.path}: ${m.problem.message}`,
  );
  return 0;
};

const history: Command = async (ctx) => {
  const versions = await listVersions(homeOf(ctx), workspaceOf(ctx), idOf(ctx));
  emit(ctx, { ok: true, versions }, () =>
    versions.length
      ? versions.map((v) => `${v.name}  ${SOURCE_WORDS[v.source]}  ${v.ok ? v.title : v.problem}`).join("\n")
      : "No saved versions.",
  );
  return 0;
};

const create: Command = async (ctx) => {
  const title = flagString(ctx, "title") ?? "";
  const text = (await textOf(ctx)) ?? "";
  const result = await createMemory(homeOf(ctx), workspaceOf(ctx), { title, text, enabled: ctx.flags.off !== true });
  return printChange(ctx, result, `Created ${result.memory?.id}.`);
};

const set: Command = async (ctx) => {
  const home = homeOf(ctx);
  const ws = workspaceOf(ctx);
  const id = idOf(ctx);
  const title = flagString(ctx, "title");
  const text = await textOf(ctx);
  const on = ctx.flags.on === true;
  const off = ctx.flags.off === true;
  if (on && off) throw new OdaError("bad_input", "Give --on or --off, not both.");
  const many = manyIds(ctx);
  if (many) {
    refuseWithMany(ctx, "title", "text", "text-file", "expect");
    if (!on && !off) throw new OdaError("bad_input", "Give --on or --off to change several memories.");
    return printBulk(ctx, await bulkChange(home, many, { kind: on ? "on" : "off" }), on ? "Turned on" : "Turned off");
  }
  if (title === undefined && text === undefined && !on && !off)
    throw new OdaError("bad_input", MESSAGES.giveTitleOrText);
  let result: ChangeResult | null = null;
  const options = changeOptions(ctx);
  if (title !== undefined || text !== undefined) result = await changeMemory(home, ws, id, { title, text }, options);
  if (on || off) {
    const next = result?.changed ? { ...options, expectedSha256: undefined } : options;
    const toggled = await setEnabled(home, ws, id, on, next);
    result = result?.changed
      ? { ...toggled, changed: true, message: toggled.changed ? undefined : result.message }
      : toggled;
  }
  return printChange(ctx, result as ChangeResult, "Saved.");
};

const remove: Command = async (ctx) => {
  const many = manyIds(ctx);
  if (many) {
    refuseWithMany(ctx, "expect");
    return printBulk(ctx, await bulkChange(homeOf(ctx), many, { kind: "delete" }), "Deleted");
  }
  return printChange(ctx, await deleteMemory(homeOf(ctx), workspaceOf(ctx), idOf(ctx), changeOptions(ctx)), "Deleted.");
};

const restore: Command = async (ctx) => {
  // `ID VERSION` restores a version; several ids restore deleted memories
  const version = ctx.args.length === 2 && !isMemoryId(ctx.args[1]) ? ctx.args[1] : undefined;
  const many = version === undefined ? manyIds(ctx) : null;
  if (many) {
    refuseWithMany(ctx, "expect");
    return printBulk(ctx, await bulkChange(homeOf(ctx), many, { kind: "restore" }), "Restored");
  }
  const args = [homeOf(ctx), workspaceOf(ctx), idOf(ctx)] as const;
  const result =
    version === undefined
      ? await restoreDeleted(...args, changeOptions(ctx))
      : await restoreVersion(...args, version, changeOptions(ctx));
  return printChange(ctx, result, "Restored.");
};

const undo: Command = async (ctx) => {
  const bulk = flagString(ctx, "bulk");
  if (bulk !== undefined) {
    if (ctx.args.length) throw new OdaError("bad_input", "Give --bulk ID or a memory's id, not both.");
    return printBulk(ctx, await undoBulk(homeOf(ctx), bulk), "Put back");
  }
  return printChange(
    ctx,
    await undoChatChange(homeOf(ctx), workspaceOf(ctx), idOf(ctx), changeOptions(ctx)),
    "Undone.",
  );
};

/** `memory move ID… --to KEY` (or `--to-global`): one bulk change. */
const move: Command = async (ctx) => {
  const to = flagString(ctx, "to");
  const toGlobal = ctx.flags["to-global"] === true;
  if ((to === undefined) === !toGlobal) throw new OdaError("bad_input", "Give --to KEY or --to-global.");
  if (!ctx.args.length) throw new OdaError("bad_input", "Give the memory's id.");
  const ws = workspaceOf(ctx);
  const targets = ctx.args.map((id) => ({ workspace: ws, id }));
  return printBulk(ctx, await bulkChange(homeOf(ctx), targets, { kind: "move", to: to ?? null }), "Moved");
};

const payload: Command = async (ctx) => {
  const p = await chatPayload(homeOf(ctx), workspaceOf(ctx));
  emit(ctx, { ok: true, ...p }, () => `${p.text}\n\n(~${p.tokens} of ${p.limit} tokens)`);
  return 0;
};

/** The `memory …` commands' runs, keyed by their words; `cli/registry.ts` holds their summaries and options. */
export const memoryRuns = {
  "memory list": list,
  "memory show": show,
  "memory history": history,
  "memory create": create,
  "memory set": set,
  "memory delete": remove,
  "memory restore": restore,
  "memory undo": undo,
  "memory move": move,
  "memory payload": payload,
} satisfies Record<string, Command>;
