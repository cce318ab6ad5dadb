import { createHash } from "node:crypto";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { encodeName, groupName } from "../lib/sessions";
import { RARE, sentence } from "./index-data";

/** The short chats of `bench:scale` (and `bench:bundle-preview`): written directly, as Oda leaves them. */

const OLD = new Date(Date.now() - 3600_000);
const CWDS = Array.from({ length: 200 }, (_, i) => `/home/user${i % 7}/project-${i}`);

/** One short chat: its log (one zstd frame) and its checkpoint, as Oda leaves them after the last save. */
export async function writeChat(logs: string, i: number): Promise<void> {
  const id = `chat-${i}`;
  const cwd = CWDS[i % CWDS.length] ?? null;
  const day = `2026-${String(1 + (i % 11)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;
  const created = `${day}T08:00:00.000Z`;
  const lines: Record<string, unknown>[] = [{ type: "session", format: 4, id, created, cwd, continues: null }];
  let inputTokens = 0;
  let outputTokens = 0;
  let last = created;
  for (let t = 0; t < 3; t++) {
    const user = `${sentence(12)}${i % 100 === 7 && t === 1 ? ` ${RARE}` : ""}?`;
    const assistant = sentence(40);
    const at = (ms: number) => new Date(Date.parse(created) + (t + 1) * 60_000 + ms).toISOString();
    const usage = { input_tokens: Math.ceil(user.length / 4), output_tokens: Math.ceil(assistant.length / 4) };
    inputTokens += usage.input_tokens;
    outputTokens += usage.output_tokens;
    last = at(1001);
    lines.push(
      { type: "message", ts: at(0), role: "user", content: [{ type: "text", text: user }] },
      {
        type: "message",
        ts: at(1000),
        role: "assistant",
        content: [{ type: "text", text: assistant }],
        model: "oda-large-2026-10",
        usage,
      },
      { type: "turn_end", ts: last },
    );
  }
  const dir = join(logs, groupName(cwd), encodeName(id));
  mkdirSync(dir, { recursive: true });
  const bytes = await compress(Buffer.from(`${lines.map((l) => JSON.stringify(l)).join("\n")}\n`), 3);
  writeFileSync(join(dir, "session.v4.jsonl.zstd"), bytes);
  const checkpoint = {
    cacheFormat: 1,
    identity: { id, created, cwd, continues: null },
    log: {
      name: "session.v4.jsonl.zstd",
      bytes: bytes.length,
      tailSha256: createHash("sha256")
        .update(bytes.subarray(Math.max(0, bytes.length - 4096)))
        .digest("hex"),
    },
    checkpointAt: last,
    details: { title: null, messages: 6, lastActivity: last, model: "oda-large-2026-10", inputTokens, outputTokens },
  };
  writeFileSync(join(dir, "session.cache.json"), JSON.stringify(checkpoint));
  for (const p of [join(dir, "session.v4.jsonl.zstd"), join(dir, "session.cache.json"), dir]) utimesSync(p, OLD, OLD);
}
