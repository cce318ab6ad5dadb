import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempDir } from "../../test-support/chats/test-helpers";
import { findInChat, listAllChats, nextErrorLine, openLogStream, readChat, readLines } from ".";

/** Every entry under `dir` with the stat fields a write would change. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const st = fs.statSync(path);
    out[path] = `${st.ino} ${st.size} ${st.mtimeMs} ${st.ctimeMs} ${st.mode}`;
  }
  return out;
}

const WRITE_FLAGS =
  fs.constants.O_WRONLY | fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_APPEND;

function isWriteFlag(flags: unknown): boolean {
  if (flags === undefined || flags === null) return false;
  if (typeof flags === "number") return (flags & WRITE_FLAGS) !== 0;
  return String(flags) !== "r" && String(flags) !== "rs";
}

afterEach(() => {
  vi.restoreAllMocks();
  syncBuiltinESMExports();
});

describe("the reader opens no file for writing", () => {
  it("lists, reads, searches and streams without a write and without changing any file", async () => {
    const dir = tempDir("logs");
    const before = snapshot(dir);
    const opens: unknown[] = [];
    const writes: string[] = [];
    const openSync = fs.openSync;
    vi.spyOn(fs, "openSync").mockImplementation((path, flags, mode) => {
      opens.push(flags);
      return openSync(path, flags, mode);
    });
    for (const name of [
      "writeFileSync",
      "appendFileSync",
      "unlinkSync",
      "renameSync",
      "mkdirSync",
      "rmSync",
      "truncateSync",
      "writeSync",
      "ftruncateSync",
      "copyFileSync",
      "createWriteStream",
    ] as const) {
      vi.spyOn(fs, name).mockImplementation((() => {
        writes.push(name);
        throw new Error(`${name} called by the reader`);
      }) as never);
    }
    syncBuiltinESMExports();
    await listAllChats(dir);
    await listAllChats(dir, { verify: true });
    for (const id of ["c-2026-11-29-a1", "c-crash", "c-old/1"]) {
      await readChat(dir, id);
      await readLines(dir, id, { from: 1, count: 5 });
      await readLines(dir, id, { from: -2, count: 3 });
      await findInChat(dir, id, "sales");
      await nextErrorLine(dir, id);
    }
    const chunks: Buffer[] = [];
    for await (const c of openLogStream(join(dir, "--%2Ftmp--", "c-crash", "session.v4.jsonl.zstd")))
      chunks.push(c as Buffer);
    expect(writes).toEqual([]);
    expect(opens.length).toBeGreaterThan(0);
    expect(opens.filter(isWriteFlag)).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });
});
