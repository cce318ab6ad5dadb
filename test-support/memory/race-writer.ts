/**
 * An outside writer that takes no lock (Oda, an editor) against Oda Admin's
 * saves: a process rewrites a memory file plainly (`writeFileSync`, in place)
 * in a tight loop while the race server saves the same memory again and
 * again. Before each write the writer reads the file back: when it no longer
 * holds the writer's previous text, a save replaced that text, which must
 * then be in the history (or current). Used by `race.test.ts` and
 * `bench/memory-race.ts`.
 */
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createMemory, findMemory, listVersions, writeSettings } from "../../lib/memory/index";
import { bundleRaceProcesses, RaceServer } from "./race-harness";
import { makeHome } from "./testing";

/** What the rounds found: empty `lost` means every replaced write was kept. */
export interface WriterReport {
  writes: number;
  replaced: number;
  saved: number;
  refused: number;
  /** The distinct refusal sentences. */
  refusals: string[];
  lost: string[];
}

const WRITER = `
import { existsSync, readFileSync, writeFileSync } from "node:fs";
const [file, stop, tag] = process.argv.slice(2);
const body = (t) => "---\\ntitle: Written outside\\nenabled: true\\nsource: user\\n---\\n\\n" + t + "\\n";
const pause = new Int32Array(new SharedArrayBuffer(4));
let last = null;
for (let i = 0; !existsSync(stop); i++) {
  // short random pauses, so that saves get through between writes as well as collide with them
  Atomics.wait(pause, 0, 0, Math.random() * 30);
  let now = null;
  try { now = readFileSync(file, "utf8"); } catch {}
  if (last !== null && now !== body(last)) process.stdout.write("replaced " + last + "\\n");
  last = tag + "-" + i;
  writeFileSync(file, body(last));
  process.stdout.write("wrote " + last + "\\n");
}
`;

function startWriter(script: string, file: string, stop: string, tag: string) {
  const child = spawn(process.execPath, [script, file, stop, tag], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  let onFirst: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    onFirst = resolve;
  });
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
    if (out.includes("\n")) onFirst();
  });
  const done = new Promise<string[]>((resolve) => child.on("exit", () => resolve(out.split("\n"))));
  return { started, done };
}

/** Runs `rounds` rounds of `saves` saves against a plain writer, each round on a fresh memory. */
export async function runOutsideWriter(options: { rounds: number; saves: number }): Promise<WriterReport> {
  const { home, cleanup } = await makeHome();
  const bundle = await bundleRaceProcesses();
  const server = new RaceServer(bundle.server, home);
  const report: WriterReport = { writes: 0, replaced: 0, saved: 0, refused: 0, refusals: [], lost: [] };
  const script = join(home, "..", "writer.mjs");
  try {
    await writeFile(script, WRITER);
    await writeSettings(home, { versionsKept: 100 });
    for (let r = 0; r < options.rounds; r++) {
      const { memory } = await createMemory(home, null, { title: `Round ${r}`, text: "start" });
      const id = memory?.id as string;
      const stop = join(home, "..", `stop-${r}`);
      const writer = startWriter(script, join(home, "memory", "global", id), stop, `W${r}`);
      await writer.started;
      const answer = await server.send({ id, loop: options.saves });
      await writeFile(stop, "");
      const lines = await writer.done;
      report.saved += (answer.saved as string[]).length;
      report.refused += (answer.refused as string[]).length;
      for (const m of answer.refused as string[]) if (!report.refusals.includes(m)) report.refusals.push(m);
      const current = await findMemory(home, null, id);
      const known = new Set([
        current?.ok ? current.text : "",
        ...(await listVersions(home, null, id)).map((v) => v.text),
      ]);
      const written = lines.filter((l) => l.startsWith("wrote ")).map((l) => l.slice(6));
      const replaced = lines.filter((l) => l.startsWith("replaced ")).map((l) => l.slice(9));
      report.writes += written.length;
      report.replaced += replaced.length;
      // the writer's last text was replaced by nobody after it, or by a save: either way it must be known
      for (const text of [...replaced, written[written.length - 1] ?? "start"]) {
        if (!known.has(text)) report.lost.push(`round ${r}: the outside write "${text}" was replaced and is lost`);
      }
    }
  } finally {
    server.stop();
    await cleanup();
    await rm(bundle.dir, { recursive: true, force: true });
  }
  return report;
}
