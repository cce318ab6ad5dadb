import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  appendCutSave,
  appendUnfinishedLine,
  type ChatWriter,
  createChat,
  leaveDeadLock,
  type NewChat,
  openChat,
  type Turn,
  upgradeToFormat4,
} from "../test-support/chats/testing";

/** Log folders for the chats e2e tests, written with the project's own Oda-compatible writer. */

export const T0 = Date.parse("2026-11-29T18:00:00.000Z");
export const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/** A closed chat with `turns` turns (checkpoint up to date). */
export async function closedChat(
  logs: string,
  id: string,
  cwd: string | null,
  turns: number,
  options: { format?: number; compress?: boolean; start?: number } = {},
): Promise<ChatWriter> {
  const w = createChat(logs, { id, cwd, created: at(options.start ?? 0) }, options);
  for (let i = 0; i < turns; i++) {
    await w.appendTurn({
      user: `Question ${i + 1} of ${id}`,
      assistant: `Answer ${i + 1} of ${id}`,
      ts: at((options.start ?? 0) + i),
    });
  }
  await w.close();
  return w;
}

/** A closed chat with exactly these turns (searches look for their words). */
export async function chatWithTurns(logs: string, chat: NewChat, turns: Turn[]): Promise<ChatWriter> {
  const w = createChat(logs, chat);
  for (const turn of turns) await w.appendTurn(turn);
  await w.close();
  return w;
}

/** An assistant's `read_file` tool call on report.md and its result: two format 4 events at `ts`. */
export function readReportToolCall(ts: string, toolUseId: string) {
  return [
    {
      type: "message",
      ts,
      role: "assistant",
      content: [{ type: "tool_use", id: toolUseId, name: "read_file", input: { path: "report.md" } }],
    },
    {
      type: "message",
      ts,
      role: "user",
      content: [{ type: "tool_result", tool_use_id: toolUseId, content: "The whole report text", is_error: false }],
    },
  ];
}

/** The list's folder: a chat of every problem kind, cached and rebuilt details, both formats, `_no-cwd`. */
export async function problemFolder(logs: string) {
  const cached = await closedChat(logs, "c-cached", "/home/ana/reports", 3, { start: 10 });
  const behind = await closedChat(logs, "c-behind", "/home/ana/reports", 1, { start: 20 });
  {
    // A save after the last checkpoint: the checkpoint is behind the log, still served.
    const w = await openChat(logs, "c-behind");
    await w.appendEvents([{ type: "title", ts: at(21), title: "Behind title" }]);
    w.releaseLock();
  }
  const rebuilt = await closedChat(logs, "c-rebuilt", "/home/ana/reports", 2, { start: 30 });
  await closedChat(logs, "c-old", null, 4, { format: 1, start: 5 });
  await upgradeToFormat4(logs, "c-old");
  await closedChat(logs, "c-dup", "/srv/a", 1);
  await closedChat(logs, "c-dup", "/srv/b", 1);
  const badCache = await closedChat(logs, "c-badcache", "/srv/a", 1, { start: 40 });
  const mismatch = await closedChat(logs, "c-mismatch", "/srv/a", 1, { start: 41 });
  const stale = await closedChat(logs, "c-stale", "/srv/a", 1, { start: 42 });
  const holder = leaveDeadLock(stale.dir);
  const cut = createChat(logs, { id: "c-cut", cwd: "/srv/a", created: at(43) });
  await cut.appendTurn({ user: "before the crash", assistant: "saved", ts: at(43) });
  await appendCutSave(
    cut,
    [{ type: "message", ts: at(44), role: "user", content: [{ type: "text", text: "lost" }] }],
    (n) => n - 4,
  );
  const form = await closedChat(logs, "c-form", "/srv/a", 1, { start: 45 });

  // Broken files, written by hand because the tests are about them.
  unlinkSync(join(rebuilt.dir, "session.cache.json"));
  writeFileSync(join(badCache.dir, "session.cache.json"), "{ not json");
  const cp = JSON.parse(readFileSync(join(mismatch.dir, "session.cache.json"), "utf8"));
  cp.identity.cwd = "/somewhere/else";
  writeFileSync(join(mismatch.dir, "session.cache.json"), JSON.stringify(cp));
  writeFileSync(
    join(form.dir, "session.v5.jsonl"),
    `${JSON.stringify({ type: "session", format: 5, id: "c-form" })}\n`,
  );
  return { cached, behind, rebuilt, badCache, mismatch, stale, holder, cut, form };
}

/** sha256 and size of every file in a folder: to show nothing else was touched. */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    out[name] = `${statSync(path).size}:${createHash("sha256").update(readFileSync(path)).digest("hex")}`;
  }
  return out;
}

export { appendUnfinishedLine };
