import { readFile } from "node:fs/promises";
import { OdaError } from "../../lib/errors";
import {
  type ChangeOptions,
  type ChangeResult,
  changeMemory,
  chatPayload,
  createMemory,
  deleteMemory,
  listDeleted,
  listSet,
  listVersions,
  MESSAGES,
  readMemory,
  restoreDeleted,
  restoreVersion,
  SOURCE_WORDS,
  setEnabled,
  undoChatChange,
} from "../../lib/memory";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, emit, flagString } from "../context";

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
  emit(ctx, { ok: true, ...set, deleted }, () => {
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
  return 0;
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

const remove: Command = async (ctx) =>
  printChange(ctx, await deleteMemory(homeOf(ctx), workspaceOf(ctx), idOf(ctx), changeOptions(ctx)), "Deleted.");

const restore: Command = async (ctx) => {
  const version = ctx.args[1];
  const args = [homeOf(ctx), workspaceOf(ctx), idOf(ctx)] as const;
  const result =
    version === undefined
      ? await restoreDeleted(...args, changeOptions(ctx))
      : await restoreVersion(...args, version, changeOptions(ctx));
  return printChange(ctx, result, "Restored.");
};

const undo: Command = async (ctx) =>
  printChange(ctx, await undoChatChange(homeOf(ctx), workspaceOf(ctx), idOf(ctx), changeOptions(ctx)), "Undone.");

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
  "memory payload": payload,
} satisfies Record<string, Command>;
