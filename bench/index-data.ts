import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { encodeName, groupName } from "../lib/chats";
import { makeHugeLog } from "./sessions-data";

/**
 * The bench:index log folder: N chats of a few turns (a deterministic
 * generator, the same folder on every run) plus one huge log, made once under
 * bench/out and reused.
 */

// A small deterministic generator.
let seed = 42;
const rand = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const WORDS =
  "report budget deploy server query table chart invoice customer migrate backup folder script python error warning cache build release branch merge review schedule meeting summary draft email contract payment export import".split(
    " ",
  );
/** A word no generated text has, in 1% of the chats. */
export const RARE = "zanzibar";
/** In 10% of the chats. */
export const MEDIUM = "kilimanjaro";
/** A phrase in 90% of the chats (the table's "phrase in most chats"). */
export const PHRASE = "weekly status update";
const CWDS = Array.from({ length: 50 }, (_, i) => `/home/user${i % 7}/project-${i}`);

/** Random words of the vocabulary. */
export const sentence = (n: number) =>
  Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(" ");

const dayOf = (i: number) => `2026-${String(1 + (i % 11)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`;

/** The identity of generated chat `i`. */
export const identityOf = (i: number) => ({
  id: `chat-${i}`,
  cwd: CWDS[i % CWDS.length] ?? null,
  created: `${dayOf(i)}T08:00:00.000Z`,
  continues: null,
});

/** One generated chat's log, as the writer would have written it turn by turn. */
async function writeChat(logs: string, i: number, turns: number): Promise<void> {
  const identity = identityOf(i);
  const day = dayOf(i);
  const lines: unknown[] = [{ type: "session", format: 4, ...identity }];
  for (let t = 0; t < turns; t++) {
    const rare = i % 100 === 7 && t === 1 ? ` ${RARE}` : "";
    const medium = i % 10 === 3 && t === 2 ? ` ${MEDIUM}` : "";
    const phrase = i % 10 !== 9 && t === 0 ? `${PHRASE} ` : "";
    const user = `${sentence(12)}${rare}?`;
    const assistant = `${phrase}${sentence(40)}${medium}`;
    const at = (ms: number) =>
      new Date(Date.parse(`${day}T08:${String(t + 1).padStart(2, "0")}:00.000Z`) + ms).toISOString();
    lines.push(
      { type: "message", ts: at(0), role: "user", content: [{ type: "text", text: user }] },
      {
        type: "message",
        ts: at(1000),
        role: "assistant",
        content: [{ type: "text", text: assistant }],
        model: "oda-large-2026-10",
        usage: { input_tokens: Math.ceil(user.length / 4), output_tokens: Math.ceil(assistant.length / 4) },
      },
      { type: "turn_end", ts: at(1001) },
    );
  }
  const dir = join(logs, groupName(identity.cwd), encodeName(identity.id));
  mkdirSync(dir, { recursive: true });
  const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
  writeFileSync(join(dir, "session.v4.jsonl.zstd"), await compress(Buffer.from(text), 3));
}

/** Makes (or reuses) the folder: `chats` chats of `turns` turns, and one log of about `hugeBytes` decompressed. */
export async function makeIndexFolder(
  out: string,
  chats: number,
  turns: number,
  hugeBytes: number,
  log: (s: string) => void,
): Promise<string> {
  const logs = join(out, `logs-v2-${chats}-${hugeBytes}`);
  if (existsSync(join(logs, ".complete"))) return logs;
  rmSync(logs, { recursive: true, force: true });
  mkdirSync(logs, { recursive: true });
  const t0 = performance.now();
  // Written directly (one zstd frame per chat, no checkpoint): the writer's per-turn checkpoint made 100,000 chats
  // take hours on a shared machine. The lines are the writer's (see ChatWriter.appendTurn).
  const pending: Promise<void>[] = [];
  for (let i = 0; i < chats; i++) {
    pending.push(writeChat(logs, i, turns));
    if (pending.length >= 64) await Promise.all(pending.splice(0));
    if ((i + 1) % 5000 === 0) log(`  ${i + 1} / ${chats} chats written`);
  }
  await Promise.all(pending);
  if (hugeBytes > 0) {
    const huge = await makeHugeLog(out, hugeBytes, log);
    // The generator writes the chat into a folder of its own; it moves into this one.
    mkdirSync(join(logs, "_no-cwd"), { recursive: true });
    renameSync(join(huge, ".."), join(logs, "_no-cwd", "huge"));
    rmSync(join(out, `huge-${hugeBytes}`), { recursive: true, force: true });
  }
  writeFileSync(join(logs, ".complete"), "");
  log(`  generated in ${Math.round((performance.now() - t0) / 1000)} s`);
  return logs;
}
