/** Test helpers: a fresh temp Oda home per test, raw files, a controllable clock. Not part of the public API. */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Makes a fresh Oda home in a temp folder; `cleanup` removes it. */
export async function makeHome(): Promise<{ home: string; cleanup: () => Promise<void> }> {
  const base = await mkdtemp(join(tmpdir(), "oda-mem-"));
  const home = join(base, "home");
  await mkdir(home);
  return { home, cleanup: () => rm(base, { recursive: true, force: true }) };
}

/** Writes a file under the home (folders created), as a person editing outside the app would. */
export async function putFile(home: string, relative: string, data: string | Uint8Array): Promise<string> {
  const path = join(home, relative);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data);
  return path;
}

/** A memory file's text as the contract writes it. */
export function memoryText(title: string, text: string, extra = "enabled: true\nsource: user\n"): string {
  return `---\ntitle: ${title}\n${extra}---\n\n${text}\n`;
}

/** A clock that returns `start` and moves on by `stepMs` per call (0: a frozen moment). */
export function makeClock(start = "2026-11-29T18:24:08.123Z", stepMs = 1): () => Date {
  let t = Date.parse(start);
  return () => {
    const d = new Date(t);
    t += stepMs;
    return d;
  };
}
