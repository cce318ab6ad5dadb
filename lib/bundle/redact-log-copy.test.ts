import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MAIL, message, run, temp } from "../../test-support/bundle/redact-log-testing";
import { withRawLog } from "../chats/problem";

// redact-log.ts's `copyRaw` (the lazy start's copy of the original's bytes) when the file gives fewer bytes
// than asked (docs/mutation.md): node:fs's readSync is wrapped so that only copyRaw's reads (told by the
// stack) come back short or empty; the log's own decode reads as usual.

const reads = vi.hoisted(() => ({ mode: "as-is" as "as-is" | "short" | "empty-once" }));

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const readSync = (fd: number, buf: Buffer, offset: number, length: number, position: number | null) => {
    if (reads.mode !== "as-is" && new Error().stack?.includes("copyRaw")) {
      if (reads.mode === "empty-once") {
        reads.mode = "as-is";
        return 0;
      }
      return fs.readSync(fd, buf, offset, Math.min(length, 3), position);
    }
    return fs.readSync(fd, buf, offset, length, position);
  };
  return { ...fs, readSync };
});

const plainLog = () => {
  const file = join(temp(), "log.jsonl");
  const before = `${message("first")}\n${message("second")}\n`;
  writeFileSync(file, `${before}${message(MAIL)}\n`);
  return { file, before };
};

describe("redactLog, lazy, copying the original's bytes", () => {
  it("writes only the bytes each short read gave, and goes on reading after them", async () => {
    const { file, before } = plainLog();
    reads.mode = "short";
    try {
      const { res, written, writes } = await run(file, { compressed: false, lazy: true });
      expect(res).toMatchObject({ again: false, changed: true, lines: 3 });
      expect(written.toString()).toBe(`${before}${message("<email-1>")}\n`);
      // Three bytes a read: the copy came in pieces of what each read gave.
      expect(writes.slice(0, 3).map((w) => w.length)).toEqual([3, 3, 3]);
    } finally {
      reads.mode = "as-is";
    }
  });

  it("stops at the copy when the file gives no bytes where it needs some, with the sentence saying why", async () => {
    const { file } = plainLog();
    reads.mode = "empty-once";
    try {
      // The copy's refusal (a conflict: the log was cut shorter) is met inside the read, so it is reported
      // as where reading stopped; nothing of the log is written.
      const { res, writes } = await run(file, { compressed: false, lazy: true });
      expect(res).toMatchObject({ again: false, changed: true, bytes: 0 });
      expect(res.unreadable).toBe(withRawLog(`${file} was cut shorter while it was bundled.`, file));
      expect(writes).toEqual([]);
    } finally {
      reads.mode = "as-is";
    }
  });
});
