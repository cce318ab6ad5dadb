import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterRows, NO_FILTERS } from "@/components/chats/list-view";
import { toRow } from "@/server/views/chat-list";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { encodeName, groupName, listAllChats } from "../chats";
import { NO_LOG_FILE, UNUSABLE_LOG } from "../chats/views";
import { closeAllIndexes, handleOf, listChatsFromIndex, refreshIndex } from "../search-index";
import type { Db } from "../search-index/db";
import { readChatsFilter } from "./links";
import { storageReport } from "./storage";
import { formatTable } from "./tables";

// "Current logs per format" (issue 30, numbers you can audit): every row, "(no usable log)" too, links to the
// chat list filtered to exactly the chats it counts, over the index's rows and over the folder's alike.

/** The ids the plain chat list shows for a link, read from its address as `components/chats/list-url.ts` does. */
function listed(rows: ReturnType<typeof toRow>[], href: string | null | undefined): string[] {
  expect(href).toMatch(/^\/chats\?/);
  const q = new URL(String(href), "http://x").searchParams;
  expect(readChatsFilter(Object.fromEntries(q))).toBeNull();
  const f = { ...NO_FILTERS, group: q.get("folder") ?? "", format: q.get("format") ?? "" };
  return filterRows(rows, f)
    .map((r) => r.id)
    .sort();
}

describe("the chats behind each row of current logs per format", () => {
  let dir: string;
  let db: Db;
  let indexRows: ReturnType<typeof toRow>[];
  let folderRows: ReturnType<typeof toRow>[];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "oda-format-links-"));
    const logs = join(dir, "logs");
    const state = join(dir, "state");
    mkdirSync(logs);
    // Healthy chats of format 4 and format 1, in /w/a and with no working folder.
    for (const [id, cwd, format] of [
      ["h4-a", "/w/a", 4],
      ["h4-none", null, 4],
      ["h1-a", "/w/a", 1],
      ["h1-b", "/w/b", 1],
    ] as const) {
      const w = createChat(logs, { id, cwd, created: "2026-10-01T08:00:00.000Z" }, { format });
      await w.appendTurn({ user: `hi ${id}`, assistant: "hello", ts: "2026-10-01T08:00:00.000Z" });
      await w.close();
    }
    const chatDir = (id: string, cwd: string | null) => {
      const d = join(logs, groupName(cwd), encodeName(id));
      mkdirSync(d, { recursive: true });
      return d;
    };
    // (a) Chat folders with no log file.
    chatDir("nolog-a", "/w/a");
    chatDir("nolog-none", null);
    // (b) Chats whose only log cannot be used: of the other form, a FIFO, a link leading outside the folder.
    writeFileSync(join(chatDir("bad-form", "/w/a"), "session.v4.jsonl"), '{"type":"session","format":4}\n');
    execFileSync("mkfifo", [join(chatDir("bad-fifo", null), "session.v4.jsonl.zstd")]);
    writeFileSync(join(dir, "outside"), "x");
    symlinkSync(join(dir, "outside"), join(chatDir("bad-link", "/w/b"), "session.v4.jsonl.zstd"));
    // A zero-byte log and one that does not decode are format 4 logs (with their problems), counted there.
    writeFileSync(join(chatDir("empty-4", "/w/a"), "session.v4.jsonl.zstd"), "");
    writeFileSync(join(chatDir("garbage-4", "/w/b"), "session.v4.jsonl.zstd"), "not zstd\n");
    settleFolder(logs);
    await refreshIndex(state, logs);
    db = handleOf(state, logs).db;
    indexRows = (await listChatsFromIndex(state, logs, { compress: true })).chats.map(toRow);
    folderRows = (await listAllChats(logs, { compress: true })).chats.map(toRow);
    expect(indexRows).toHaveLength(11);
    expect(indexRows.map((r) => r.id).sort()).toEqual(folderRows.map((r) => r.id).sort());
  }, 60_000);
  afterAll(() => {
    closeAllIndexes();
    rmSync(dir, { recursive: true, force: true });
  });

  it("links every row, (no usable log) too, to a list of exactly the chats the row counts", () => {
    for (const cwd of [undefined, "/w/a", "/w/b", ""]) {
      const report = storageReport(db, { cwd });
      const table = formatTable(report);
      for (const [i, g] of report.byFormat.entries()) {
        const href = table.links?.Logs?.[i];
        const ids = listed(indexRows, href);
        expect(ids, `format ${g.format} in ${cwd}`).toHaveLength(g.logs);
        expect(listed(folderRows, href), `format ${g.format} in ${cwd}, from the folder`).toEqual(ids);
      }
    }
    const all = storageReport(db);
    const unusable = all.byFormat.findIndex((g) => g.format === null);
    expect(all.byFormat[unusable]).toEqual({ format: null, logs: 3, bytes: 0, decompressedBytes: 0 });
    expect(formatTable(all).rows[unusable]?.[0]).toBe("(no usable log)");
    const href = formatTable(all).links?.Logs?.[unusable];
    expect(href).toBe(`/chats?format=${UNUSABLE_LOG}`);
    expect(listed(folderRows, href)).toEqual(["bad-fifo", "bad-form", "bad-link"]);
    expect(all.byFormat.find((g) => g.format === 4)?.logs).toBe(4);
    expect(all.byFormat.find((g) => g.format === 1)?.logs).toBe(2);
    // In /w/a the row counts bad-form only; with no working folder, bad-fifo only.
    const inA = storageReport(db, { cwd: "/w/a" });
    expect(formatTable(inA).links?.Logs?.[inA.byFormat.findIndex((g) => g.format === null)]).toBe(
      `/chats?folder=${encodeURIComponent(groupName("/w/a"))}&format=${UNUSABLE_LOG}`,
    );
  });

  it("has no row for chat folders with no log file, which the list's own value finds", () => {
    const noCwd = storageReport(db, { cwd: "" });
    expect(noCwd.byFormat.map((g) => [g.format, g.logs])).toEqual([
      [null, 1],
      [4, 1],
    ]);
    const onlyFormat4 = storageReport(db, { cwd: "/w/b" }).byFormat.filter((g) => g.format === null);
    expect(onlyFormat4.map((g) => g.logs)).toEqual([1]);
    for (const rows of [indexRows, folderRows]) {
      const f = { ...NO_FILTERS, format: NO_LOG_FILE };
      expect(
        filterRows(rows, f)
          .map((r) => r.id)
          .sort(),
      ).toEqual(["nolog-a", "nolog-none"]);
    }
  });
});
