import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChat } from "../chats/testing";

/**
 * Fixtures of the repair tests and the kill bench: a real Oda home, log
 * folder and admin state in a fresh temp folder, chats written by the
 * project's writer or by the `zstd` tool.
 */

/** The three roots of one test. */
export interface RepairWorld {
  base: string;
  home: string;
  logs: string;
  state: string;
  roots: { home: string; logs: string; state: string };
  remove(): void;
}

/** A fresh world; the log folder's form is `compress` (written to settings.json). */
export function makeWorld(compress: boolean): RepairWorld {
  const base = mkdtempSync(join(tmpdir(), "oda-repair-"));
  const home = join(base, "home");
  const logs = join(base, "logs");
  const state = join(base, "state");
  for (const dir of [home, logs, state]) mkdirSync(dir, { recursive: true });
  setCompress(home, compress);
  return {
    base,
    home,
    logs,
    state,
    roots: { home, logs, state },
    remove: () => rmSync(base, { recursive: true, force: true }),
  };
}

/** Sets `sessions.compress` in the home's settings.json (as Memory › Settings would). */
export function setCompress(home: string, compress: boolean): void {
  writeFileSync(join(home, "settings.json"), `${JSON.stringify({ sessions: { compress } })}\n`);
}

/** Writes a chat with the project's writer in the given form: `turns` turns, closed (no lock left). */
export async function writeChat(
  logs: string,
  id: string,
  options: { compress: boolean; turns?: number; cwd?: string | null; format?: number },
): Promise<string> {
  const writer = createChat(
    logs,
    { id, cwd: options.cwd === undefined ? "/home/ana/reports" : options.cwd, created: "2026-11-29T18:24:08.123Z" },
    { compress: options.compress, format: options.format ?? 4, framesPerSave: 2 },
  );
  for (let i = 0; i < (options.turns ?? 3); i++)
    await writer.appendTurn({
      user: `question ${i} ${"é".repeat(i)}`,
      assistant: `answer ${i}\nwith a second line`,
      ts: new Date(Date.parse("2026-11-29T18:25:00.000Z") + i * 60_000).toISOString(),
    });
  await writer.close();
  return writer.dir;
}

/** Compresses `plain` with the real `zstd` tool (two frames, as two saves would). */
export function zstdTool(plain: Buffer): Buffer {
  const cut = plain.lastIndexOf(10, Math.floor(plain.length / 2)) + 1;
  const frame = (b: Buffer) => execFileSync("zstd", ["-q", "-c"], { input: b });
  return Buffer.concat([frame(plain.subarray(0, cut)), frame(plain.subarray(cut))]);
}

/** Decompresses with the real `zstd` tool. */
export function unzstdTool(bytes: Buffer): Buffer {
  return execFileSync("zstd", ["-q", "-dc"], { input: bytes, maxBuffer: 1 << 30 });
}

/** Every file under `dir` (recursively) with its SHA-256: two equal snapshots mean identical bytes. */
export function snapshotFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (statSync(path).isFile()) out[path] = createHash("sha256").update(readFileSync(path)).digest("hex");
    else out[path] = "folder";
  }
  return out;
}
