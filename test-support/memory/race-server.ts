/**
 * The "server" side of the race harness: a long-lived process that makes
 * changes through the same lib entry the dashboard's server actions call
 * (`changeMemoryAction` → `changeMemory` with the sha256 the page saw), while
 * CLI processes race it. Reads one JSON command per stdin line and answers
 * one JSON line each:
 * - `{"n", "id", "title", "text", "expect"?}`: one save → `{"n", "ok": true}` or `{"n", "ok": false, "message"}`;
 * - `{"n", "loop": k, "id"}`: k saves of `S<n>-<i>` without expect → `{"n", "saved": [...], "refused": [...]}`.
 * Run as `node race-server.mjs <home>`.
 */
import { createInterface } from "node:readline";
import { isOdaError } from "../../lib/errors";
import { changeMemory } from "../../lib/memory/index";

const home = process.argv[2] as string;

interface Command {
  n: number;
  id: string;
  title?: string;
  text?: string;
  expect?: string;
  loop?: number;
}

async function save(id: string, title: string | undefined, text: string, expect?: string) {
  try {
    await changeMemory(home, null, id, { title, text }, expect ? { expectedSha256: expect } : {});
    return { ok: true as const };
  } catch (error) {
    return { ok: false as const, message: isOdaError(error) ? error.message : `unexpected: ${String(error)}` };
  }
}

async function run(c: Command): Promise<object> {
  if (c.loop === undefined) return { n: c.n, ...(await save(c.id, c.title, c.text ?? "", c.expect)) };
  const saved: string[] = [];
  const refused: string[] = [];
  for (let i = 0; i < c.loop; i++) {
    const text = `S${c.n}-${i}`;
    const r = await save(c.id, undefined, text);
    if (r.ok) saved.push(text);
    else refused.push(r.message);
  }
  return { n: c.n, saved, refused };
}

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  void run(JSON.parse(line) as Command).then((answer) => process.stdout.write(`${JSON.stringify(answer)}\n`));
}
