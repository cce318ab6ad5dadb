import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { createChat } from "../test-support/chats/testing";

/** Generated bench data: a log folder of many small chats, and one huge log. */

const WORDS =
  "the a report sales quarter revenue customer data table chart summary because while would could should analysis figure increase decrease region north south east west product team meeting email draft review budget forecast risk plan update status".split(
    " ",
  );

/** Pseudo-random text (seeded), compressing roughly like real chat text. */
export function makeText(seed: number, words: number): string {
  let x = seed * 2654435761 + 1;
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    const w = WORDS[x % WORDS.length] as string;
    out.push(x % 17 === 0 ? `${w}${x % 1000}` : w);
  }
  return out.join(" ");
}

/** A log folder with `count` chats, each with a few turns and a checkpoint (kept between runs). */
export async function makeChatFolder(root: string, count: number, log: (s: string) => void): Promise<string> {
  const dir = join(root, `logs-${count}`);
  const marker = join(dir, ".complete");
  if (existsSync(marker)) return dir;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const groups = Math.max(1, Math.round(count / 100));
  for (let i = 0; i < count; i++) {
    const w = createChat(dir, {
      id: `c-${i}`,
      cwd: `/home/user/project-${i % groups}`,
      created: new Date(1_790_000_000_000 + i * 1000).toISOString(),
    });
    for (let t = 0; t < 3; t++) {
      await w.appendTurn({
        user: makeText(i * 10 + t, 30),
        assistant: makeText(i * 10 + t + 5, 120),
        ts: new Date(1_790_000_000_000 + i * 1000 + t * 60_000).toISOString(),
      });
    }
    await w.close();
    if (i % 2000 === 1999) log(`  ${i + 1} chats written`);
  }
  mkdirSync(marker);
  return dir;
}

/** One chat whose log decompresses to about `bytes` bytes, written save by save (one frame each). */
export async function makeHugeLog(root: string, bytes: number, log: (s: string) => void): Promise<string> {
  const dir = join(root, `huge-${bytes}`);
  const marker = join(dir, ".complete");
  const logPath = join(dir, "_no-cwd", "huge", "session.v4.jsonl.zstd");
  if (existsSync(marker)) return logPath;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const w = createChat(dir, { id: "huge", cwd: null, created: "2026-11-29T00:00:00.000Z" });
  await w.appendEvents([{ type: "title", ts: "2026-11-29T00:00:00.000Z", title: "A very long chat" }]);
  let written = statSync(w.logPath).size;
  let decompressed = 0;
  let save = 0;
  while (decompressed < bytes) {
    const lines: string[] = [];
    for (let j = 0; j < 100; j++) {
      const n = save * 100 + j;
      lines.push(
        JSON.stringify({
          type: "message",
          ts: new Date(1_790_000_000_000 + n * 1000).toISOString(),
          role: j % 2 ? "assistant" : "user",
          content: [{ type: "text", text: makeText(n, 20 + (n % 200)) }],
          ...(j % 2 ? { model: "oda-large-2026-10", usage: { input_tokens: n % 5000, output_tokens: n % 900 } } : {}),
        }),
      );
    }
    decompressed += lines.reduce((s, l) => s + l.length + 1, 0);
    await w.writeSave(await w.encodeSave(lines), null);
    save++;
    if (save % 2000 === 0) log(`  ${(decompressed / 1e9).toFixed(2)} GB decompressed written`);
  }
  written = statSync(w.logPath).size;
  log(
    `  huge log: ${(decompressed / 1e9).toFixed(2)} GB decompressed, ${(written / 1e6).toFixed(0)} MB on disk, ${save} saves`,
  );
  await w.close();
  mkdirSync(marker);
  void readdirSync;
  return w.logPath;
}
