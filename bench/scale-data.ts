/**
 * The generated log folders of the scale benches (`bench:scale`, `bench:dashboard`): `n` short chats of three
 * turns, each with its checkpoint, as Oda leaves them, over 200 working folders; one chat in 100 says the
 * rare word. With `hugeBytes` one more chat (`_no-cwd/huge`) whose log of about that many bytes decompressed
 * has no checkpoint. Made once under `out` and reused (a `.complete` marker).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { encodeName, groupName } from "../lib/chats";
import { RARE, sentence } from "./index-data";
import { makeHugeLog } from "./sessions-data";

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

/** The folder of `n` chats (and the huge log), made once. */
export async function makeScaleFolder(
  out: string,
  n: number,
  hugeBytes: number,
  log: (s: string) => void,
): Promise<string> {
  const logs = join(out, `logs-${n}-${hugeBytes}`);
  if (existsSync(join(logs, ".complete"))) return logs;
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const t0 = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    pending.push(writeChat(logs, i));
    if (pending.length >= 64) await Promise.all(pending.splice(0));
    if ((i + 1) % 10_000 === 0) log(`  ${i + 1} / ${n} chats written`);
  }
  await Promise.all(pending);
  if (hugeBytes) {
    const huge = await makeHugeLog(out, hugeBytes, log);
    const into = join(logs, "_no-cwd", "huge");
    mkdirSync(join(logs, "_no-cwd"), { recursive: true });
    spawnSync("mv", [join(huge, ".."), into]);
    rmSync(join(into, "session.cache.json"), { force: true });
    rmSync(join(out, `huge-${hugeBytes}`), { recursive: true, force: true });
  }
  writeFileSync(join(logs, ".complete"), "");
  log(`  ${n} chats generated in ${Math.round((performance.now() - t0) / 1000)} s`);
  return logs;
}
