import { existsSync } from "node:fs";
import { join } from "node:path";
import { type ChatSummary, listChats, type Problem, showChat } from "../../lib/chats";
import type { ListingCounts } from "../../lib/chats/remembered";
import { OdaError } from "../../lib/errors";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, flagString } from "../context";
import { reportLeftOut } from "../left-out";
import { logFolder } from "../log-folder";

/** The log folder, or a bad-input error telling how to give it. */
function logsOf(ctx: CommandContext): string {
  return requireRoot(ctx.roots, "logs");
}

function intFlag(ctx: CommandContext, name: string, fallback: number): number {
  const value = flagString(ctx, name);
  if (value === undefined) return fallback;
  if (!/^-?\d+$/.test(value)) throw new OdaError("bad_input", `--${name} takes a whole number.`);
  return Number(value);
}

/** The list entry the CLI prints for one chat (`served`: how, when the admin state remembers listings). */
function entryOf(chat: ChatSummary, served?: keyof ListingCounts) {
  // Printed as JSON only: an undefined `served` (no admin state) is left out.
  return {
    id: chat.id,
    folder: chat.folder,
    cwd: chat.cwd,
    format: chat.format,
    messages: chat.messages,
    title: chat.title,
    lastActivity: chat.lastActivity,
    cached: chat.cached,
    cacheState: chat.cacheState,
    lock: chat.lock.state,
    problems: chat.problems.map((p) => p.message),
    served,
  };
}

/** One chat as `chats list` prints it without `--json`. */
function printChat(ctx: CommandContext, chat: ChatSummary): void {
  // Served from the admin state's memory: `cached`, or `rebuilt` when the details came from the log (the contract's labels).
  const cache = chat.cached
    ? chat.cacheState === "behind"
      ? "cached (behind)"
      : "cached"
    : chat.remembered
      ? "rebuilt"
      : "read";
  ctx.out(
    [
      chat.id,
      `v${chat.format ?? "?"}`,
      `${chat.messages} msgs`,
      chat.lastActivity ?? "-",
      cache,
      `lock:${chat.lock.state}`,
      chat.title ?? "",
    ].join("  "),
  );
  for (const p of chat.problems) ctx.out(`  ! ${p.message}`);
}

/** Where a chat's details came from: the listing's memory, the full rule from the checkpoint, or the log. */
function servedFrom(chat: ChatSummary): keyof ListingCounts {
  if (chat.remembered) return "memory";
  return chat.cached || !chat.generations.some((g) => g.current) ? "verified" : "rebuilt";
}

/** How the listing served its chats (printed when the admin state remembers listings). */
export function servedSentence(c: ListingCounts): string {
  const n = c.memory + c.verified + c.rebuilt;
  return `${n} ${n === 1 ? "chat" : "chats"}: ${c.memory} served from memory, ${c.verified} verified again, ${c.rebuilt} rebuilt from the log.`;
}

/**
 * `oda-admin chats list --logs DIR [--json]` (or `sessions list`): one entry per chat, printed
 * batch by batch. With `--json` the document is streamed too (one chat per
 * line, `{"ok": true, "chats": [...], "problems": [...]}`), so 100,000 chats
 * never sit in memory at once; it opens only once the first batch is read,
 * so a refusal (no log folder) still prints `{"ok": false, ...}` alone.
 */
const list: Command = async (ctx) => {
  const logDir = logsOf(ctx);
  const compress = logFolder(ctx).compress;
  const problems: Problem[] = [];
  const unreadable: string[] = [];
  let opened = false;
  // On this thread unless ODA_ADMIN_LIST_THREADS asks for list threads (ctx.listThreads, lib/chats/list-pool.ts):
  // a chat served from its checkpoint is a dozen small system calls, which threads did not speed up in any run
  // of bench:sessions (idle or loaded), while each holds a heap of its own (227 MiB against 139 at 100,000 chats).
  const threads = ctx.listThreads ?? false;
  // The admin state remembers what each listing verified (lib/chats/remembered.ts); loaded only with a state.
  const memory = ctx.roots.state
    ? (await import("../../lib/chats/remembered")).openListingMemory(ctx.roots.state, compress)
    : null;
  let counts: ListingCounts = { memory: 0, verified: 0, rebuilt: 0 };
  // How many marks and notes each chat has in the admin state (issue 29): `notes` in --json when any.
  // The notes module (and its schema library) is loaded only when there are notes to count.
  const state = ctx.roots.state;
  const notes =
    state && existsSync(join(state, "notes"))
      ? (await import("../../lib/notes")).noteCounts(state)
      : new Map<string, number>();
  const withNotes = <T extends { id: string }>(entry: T) => {
    const n = notes.get(entry.id);
    return n ? { ...entry, notes: n } : entry;
  };
  try {
    for await (const batch of listChats(logDir, { compress, threads, memory })) {
      counts = batch.counts;
      problems.push(...batch.problems);
      for (const chat of batch.chats)
        for (const p of chat.problems) if (p.kind === "system") unreadable.push(p.message);
      if (!ctx.json) {
        for (const chat of batch.chats) printChat(ctx, chat);
        continue;
      }
      const lines = batch.chats.map((chat) =>
        JSON.stringify(withNotes(entryOf(chat, memory ? servedFrom(chat) : undefined))),
      );
      if (!opened) {
        ctx.out('{"ok": true, "chats": [');
        opened = true;
      } else if (lines.length) lines[0] = `,${lines[0]}`;
      if (lines.length) ctx.out(lines.join(",\n"));
    }
  } finally {
    memory?.close();
  }
  for (const p of problems) if (p.kind === "system") unreadable.push(p.message);
  const messages = problems.map((p) => p.message);
  if (ctx.json)
    ctx.out(
      `${opened ? "" : '{"ok": true, "chats": ['}], "problems": ${JSON.stringify(messages)}, "leftOut": ${unreadable.length}${memory ? `, "served": ${JSON.stringify(counts)}` : ""}}`,
    );
  else {
    for (const m of messages) ctx.out(`! ${m}`);
    if (memory) ctx.out(servedSentence(counts));
  }
  return reportLeftOut(ctx, unreadable, { printed: true });
};

/** `oda-admin chat show <id> [--from N] [--count K] [--raw] [--generation NAME] [--json]`. */
const show: Command = async (ctx) => {
  const logDir = logsOf(ctx);
  const id = ctx.args[0];
  if (id === undefined) throw new OdaError("bad_input", "Give the chat's id.");
  const compress = logFolder(ctx).compress;
  const generation = flagString(ctx, "generation");
  const from = intFlag(ctx, "from", 1);
  const count = intFlag(ctx, "count", 50);
  // One open of each log read, every read through it (lib/chats/show.ts).
  const { chat, read, changed } = await showChat(logDir, id, { compress, generation, from, count });
  const error = changed ?? read.error;
  if (ctx.flags.raw === true && !ctx.json) {
    for (const line of read.lines) ctx.out(line.raw);
    if (error) ctx.err(error);
    return error ? 1 : 0;
  }
  const generations = chat.generations.map((g) => ({
    name: g.name,
    format: g.format,
    form: g.compressed ? "zstd" : "plain",
    bytes: g.bytes,
    decompressedBytes: g.current ? chat.decompressedBytes : null,
    current: g.current,
    refused: g.refused,
  }));
  if (ctx.json) {
    const { generations: _g, ...summary } = chat;
    ctx.out(
      JSON.stringify(
        {
          ok: !error,
          chat: summary,
          generations,
          generation: read.generation,
          lines: read.lines,
          total: read.total,
          tail: read.tail,
          error,
          changed,
        },
        null,
        2,
      ),
    );
    return error || chat.problems.some((p) => p.kind !== "tail") ? 1 : 0;
  }
  ctx.out(`Chat ${chat.id}  (${chat.folder})`);
  ctx.out(
    `  working folder: ${chat.cwd ?? "none"}   created: ${chat.created ?? "-"}   continues: ${chat.continues ?? "-"}`,
  );
  ctx.out(`  title: ${chat.title ?? "-"}   messages: ${chat.messages}   models: ${chat.models.join(", ") || "-"}`);
  ctx.out(
    `  tokens: ${chat.inputTokens} in / ${chat.outputTokens} out   lock: ${chat.lock.state} (${chat.lock.reason})`,
  );
  ctx.out(`  checkpoint: ${chat.cacheState} (${chat.cacheReason})`);
  if (chat.header) ctx.out(`  header: ${JSON.stringify(chat.header)}`);
  ctx.out("Generations:");
  for (const g of generations) {
    ctx.out(
      `  ${g.current ? "*" : " "} ${g.name}  ${g.form}  ${g.bytes} bytes${g.decompressedBytes !== null ? ` (${g.decompressedBytes} decompressed)` : ""}${g.refused ? `  refused: ${g.refused}` : ""}`,
    );
  }
  ctx.out(
    `Lines ${read.lines[0]?.n ?? from}..${read.lines[read.lines.length - 1]?.n ?? from} of ${read.total ?? "?"} (${read.generation}):`,
  );
  let printed = false;
  for (const line of read.lines) {
    ctx.out(`${String(line.n).padStart(6)}  @${line.offset}  ${line.raw}`);
    if (line.error) {
      ctx.out(`        ! ${line.error}`);
      printed = true;
    }
  }
  const tail = read.tail ?? chat.tail;
  ctx.out(
    `Tail: ${tail?.message ?? (tail ? "complete" : changed ? "not known: the log changed while it was read" : "not reached")}`,
  );
  for (const p of chat.problems) {
    if (p.kind === "tail") continue;
    ctx.out(`! ${p.message}`);
    printed = true;
  }
  // Every error printed makes the exit non-zero (issue 24: an error line with exit 0).
  if (error) {
    ctx.err(error);
    return 1;
  }
  return printed ? 1 : 0;
};

/** The `chats list` and `chat show` runs; `cli/registry.ts` holds their summaries, options and aliases. */
export const sessionRuns = { "chats list": list, "chat show": show } satisfies Record<string, Command>;
