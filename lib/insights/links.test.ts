import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filterRows, NO_FILTERS } from "@/components/chats/list-view";
import { toRow } from "@/server/views/chat-list";
import { createChat, settleFolder } from "../../test-support/chats/testing";
import { type InsightsFixture, makeDstFixture } from "../../test-support/insights/test-fixture";
import { groupName, listAllChats } from "../chats";
import type { ChatRow } from "../chats/views";
import { closeAllIndexes, handleOf, listChatsFromIndex, refreshIndex } from "../search-index";
import type { Db } from "../search-index/db";
import {
  activityByDay,
  chatsForFilter,
  type StorageSums,
  storageChatsForFilter,
  storageReport,
  type UsageSums,
  usageByChat,
  usageByFolder,
  usageByPeriod,
} from ".";
import { type ChatsFilter, describeChatsFilter, filteredChatsHref, readChatsFilter, storageFilter } from "./links";
import { readStarted, startedParam } from "./started";
import {
  activityFolderTable,
  activityTable,
  chatUsageTable,
  folderUsageTable,
  formatTable,
  largestChatsTable,
  modelTable,
  periodTable,
  storageFolderTable,
} from "./tables";

// Every total on the Insights page links to the chat list filtered to the chats it sums: the link, read back
// as the chat list reads it, lists chats whose sums are that total (the same lines, the same days).

type Sums = Pick<UsageSums, "messages" | "messagesWithoutUsage" | "inputTokens" | "outputTokens" | "totalTokens">;
const pick = (s: Sums): Sums => ({
  messages: s.messages,
  messagesWithoutUsage: s.messagesWithoutUsage,
  inputTokens: s.inputTokens,
  outputTokens: s.outputTokens,
  totalTokens: s.totalTokens,
});

/** The chat list's filter for a link, read from its address as the page reads it. */
function followed(href: string | null | undefined): ChatsFilter {
  expect(href).toMatch(/^\/chats\?/);
  const q = new URL(String(href), "http://x").searchParams;
  const f = readChatsFilter(Object.fromEntries(q));
  expect(f).not.toBeNull();
  return f as ChatsFilter;
}

/** How many chats the list shows for a filter (and the count it states, which must agree). */
function listedCount(db: Db, f: ChatsFilter): number {
  const { chats, totals } = chatsForFilter(db, f);
  expect(totals.chats).toBe(chats.length);
  return chats.length;
}

/** The bytes of the chats a storage link lists, summed chat by chat (and the sums it states, which must agree). */
function listedBytes(db: Db, f: ChatsFilter): StorageSums {
  expect(f.sum).toBe("bytes");
  const { chats, totals } = storageChatsForFilter(db, f);
  const sum = (k: keyof StorageSums) => chats.reduce((t, c) => t + c[k], 0);
  const listed: StorageSums = {
    chats: chats.length,
    currentBytes: sum("currentBytes"),
    decompressedBytes: sum("decompressedBytes"),
    olderBytes: sum("olderBytes"),
    olderLogs: sum("olderLogs"),
    checkpointBytes: sum("checkpointBytes"),
    checkpoints: sum("checkpoints"),
    lockBytes: sum("lockBytes"),
    locks: sum("locks"),
    totalBytes: sum("totalBytes"),
  };
  expect(totals).toEqual(listed);
  return listed;
}

/** The sum of the listed chats' own numbers (what the filtered list shows, chat by chat). */
function listedSum(db: Db, f: ChatsFilter): Sums {
  const { chats, totals } = chatsForFilter(db, f);
  const sum = chats.reduce(
    (t, c) => ({
      messages: t.messages + c.messages,
      messagesWithoutUsage: t.messagesWithoutUsage + c.messagesWithoutUsage,
      inputTokens: t.inputTokens + c.inputTokens,
      outputTokens: t.outputTokens + c.outputTokens,
      totalTokens: t.totalTokens + c.totalTokens,
    }),
    { messages: 0, messagesWithoutUsage: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  );
  expect(pick(totals)).toEqual(sum);
  return sum;
}

/**
 * The plain chat list's rows for a link (`/chats?folder=&started=&tz=`), read from its address as the list
 * reads it (`components/chats/list-url.ts`) and filtered as it filters them.
 */
function listedRows(rows: ChatRow[], href: string | null | undefined): string[] {
  expect(href).toMatch(/^\/chats\?/);
  const q = new URL(String(href), "http://x").searchParams;
  // Not an Insights total's view: the plain list, which filters the rows it is given.
  expect(readChatsFilter(Object.fromEntries(q))).toBeNull();
  const f = {
    ...NO_FILTERS,
    group: q.get("folder") ?? "",
    format: q.get("format") ?? "",
    started: q.get("started") ?? "",
    tz: q.get("tz") ?? "",
  };
  return filterRows(rows, f)
    .map((r) => r.id)
    .sort();
}

describe("the chats behind each Insights total, across Berlin's change back to winter time", () => {
  let fx: InsightsFixture;
  let db: Db;
  /** The chat list's rows over the index and over the folder listing (no index). */
  let indexRows: ChatRow[];
  let folderRows: ChatRow[];
  beforeAll(async () => {
    fx = await makeDstFixture();
    // Started at 23:30 CET on the 25th, the day of 25 hours: its 24th hour (a day taken as 24 hours from its
    // first offset would put it on the 26th). And a chat folder with no log, which started on no day.
    const night = createChat(fx.logs, { id: "d-night", cwd: "/work/b", created: "2026-10-25T22:30:00.000Z" });
    await night.appendTurn({
      user: "late",
      assistant: "late",
      ts: "2026-10-25T22:30:00.000Z",
      model: "beta",
      usage: { input_tokens: 41, output_tokens: 9 },
    });
    await night.close();
    mkdirSync(join(fx.logs, groupName("/work/a"), "d-empty"));
    settleFolder(fx.logs);
    await refreshIndex(fx.state, fx.logs);
    db = handleOf(fx.state, fx.logs).db;
    indexRows = (await listChatsFromIndex(fx.state, fx.logs, { compress: true })).chats.map(toRow);
    folderRows = (await listAllChats(fx.logs, { compress: true })).chats.map(toRow);
    expect(indexRows.map((r) => r.id).sort()).toEqual(folderRows.map((r) => r.id).sort());
  }, 60_000);
  afterAll(() => {
    closeAllIndexes();
    rmSync(fx.dir, { recursive: true, force: true });
  });

  it("sums each day's, week's and month's chats to that period's total", () => {
    for (const filter of [{ tz: "Europe/Berlin" }, { tz: "UTC" }, { tz: "Europe/Berlin", model: "beta" }]) {
      for (const period of ["daily", "weekly", "monthly"] as const) {
        const report = usageByPeriod(db, period, filter);
        const table = periodTable(report);
        expect(report.rows.length).toBeGreaterThan(0);
        for (const [i, row] of report.rows.entries()) {
          expect(
            listedSum(db, followed(table.links?.["Total tokens"]?.[i])),
            `${period} ${row.period} ${filter.tz}`,
          ).toEqual(pick(row));
          // The period's "Chats" count links to the chats it counts.
          expect(listedCount(db, followed(table.links?.Chats?.[i])), `chats ${period} ${row.period}`).toBe(row.chats);
        }
      }
    }
    // The day of the change holds its 25 hours: 00:00 CEST to 24:00 CET; d-late (00:30 CET on the 26th) and
    // d-early (14:00 CEST on the 24th) are not among its chats.
    const day = usageByPeriod(db, "daily", { tz: "Europe/Berlin" });
    const i = day.rows.findIndex((r) => r.period === "2026-10-25");
    const f = followed(periodTable(day).links?.["Total tokens"]?.[i]);
    expect(f).toEqual({ from: "2026-10-25", to: "2026-10-25", tz: "Europe/Berlin" });
    expect(describeChatsFilter(f)).toBe("Chats active on 2026-10-25 (days in Europe/Berlin)");
    expect(listedSum(db, f).inputTokens).toBe(13 + 17 + 19 + 23 + 41);
    expect(
      chatsForFilter(db, f)
        .chats.map((c) => c.id)
        .sort(),
    ).toEqual(["d-night", "d-old", "d-span"]);
  });

  it("sums each model's and each folder's chats to that model's and that folder's total", () => {
    for (const filter of [{ tz: "Europe/Berlin" }, { tz: "Europe/Berlin", since: "2026-10-25", until: "2026-10-26" }]) {
      const report = usageByPeriod(db, "daily", filter);
      const models = modelTable(report);
      expect(report.totals.modelBreakdowns.length).toBeGreaterThanOrEqual(3);
      // Every model's row links, "(no model)" too (users' lines and format 1 messages: `model=` empty).
      expect(report.totals.modelBreakdowns.some((m) => m.modelName === "")).toBe(true);
      for (const [i, m] of report.totals.modelBreakdowns.entries())
        expect(listedSum(db, followed(models.links?.["Total tokens"]?.[i])), `model ${m.modelName}`).toEqual(pick(m));
      const { folders } = usageByFolder(db, filter);
      const table = folderUsageTable(folders, report.scope);
      expect(folders.some((f) => f.cwd === null)).toBe(true);
      for (const [i, folder] of folders.entries()) {
        expect(listedSum(db, followed(table.links?.["Total tokens"]?.[i])), `folder ${folder.cwd}`).toEqual(
          pick(folder),
        );
        expect(listedCount(db, followed(table.links?.Chats?.[i])), `folder ${folder.cwd} chats`).toBe(folder.chats);
      }
    }
    const f = readChatsFilter({ model: "beta", cwd: "", from: "2026-10-24", to: "2026-10-26", tz: "Europe/Berlin" });
    expect(filteredChatsHref(f as ChatsFilter)).toBe(
      "/chats?from=2026-10-24&to=2026-10-26&model=beta&cwd=&tz=Europe%2FBerlin",
    );
    expect(describeChatsFilter(f as ChatsFilter)).toBe(
      "Chats active 2026-10-24 to 2026-10-26 with model beta with no working folder (days in Europe/Berlin)",
    );
  });

  it("sums the page's overall total's chats to it", () => {
    const report = usageByPeriod(db, "daily", { tz: "Europe/Berlin", since: "2026-10-25" });
    const f = followed(filteredChatsHref({ tz: "Europe/Berlin", from: "2026-10-25" }));
    expect(listedSum(db, f)).toEqual(pick(report.totals));
  });

  it("counts each day's active chats in the list its count links to", () => {
    for (const filter of [{ tz: "Europe/Berlin" }, { tz: "UTC" }, { tz: "Europe/Berlin", model: "beta" }]) {
      const report = activityByDay(db, filter);
      const table = activityTable(report);
      const active = report.days.filter((d) => d.active > 0);
      expect(active.length).toBeGreaterThan(1);
      for (const [i, d] of report.days.entries()) {
        const href = table.links?.["Chats active"]?.[i];
        if (d.active === 0) expect(href).toBeNull();
        else expect(listedCount(db, followed(href)), `${d.date} ${filter.tz} ${filter.model}`).toBe(d.active);
      }
    }
    // The 25-hour day in Berlin: its three chats, as its token total lists them.
    const report = activityByDay(db, { tz: "Europe/Berlin" });
    const i = report.days.findIndex((d) => d.date === "2026-10-25");
    expect(report.days[i]?.active).toBe(3);
    expect(followed(activityTable(report).links?.["Chats active"]?.[i])).toEqual({
      from: "2026-10-25",
      to: "2026-10-25",
      tz: "Europe/Berlin",
    });
  });

  it("lists each day's started chats, over the index and over the folder, as that day's count counts them", () => {
    const filters = [
      { tz: "Europe/Berlin" },
      { tz: "UTC" },
      { tz: "Asia/Kathmandu" },
      { tz: "Europe/Berlin", model: "beta" },
      { tz: "Europe/Berlin", cwd: "/work/a" },
      { tz: "Europe/Berlin", cwd: "" },
      { tz: "Europe/Berlin", since: "2026-10-25", until: "2026-10-25" },
    ];
    for (const filter of filters) {
      const report = activityByDay(db, filter);
      const table = activityTable(report);
      const seen: string[] = [];
      for (const [i, d] of report.days.entries()) {
        const href = table.links?.["Chats started"]?.[i];
        if (d.started === 0) {
          expect(href).toBeNull();
          continue;
        }
        const listed = listedRows(indexRows, href);
        expect(listed, `${d.date} ${JSON.stringify(filter)}`).toHaveLength(d.started);
        expect(listedRows(folderRows, href), `${d.date} over the folder`).toEqual(listed);
        seen.push(...listed);
      }
      // Each chat that started in the report is listed under one day only.
      expect(new Set(seen).size).toBe(seen.length);
    }
    // Every chat with a start is under one of the days of the unfiltered report; d-empty (no log) under none.
    const all = activityTable(activityByDay(db, { tz: "Europe/Berlin" }));
    const everyDay = (all.links?.["Chats started"] ?? []).flatMap((h) => (h ? listedRows(indexRows, h) : []));
    expect(everyDay.sort()).toEqual(
      indexRows
        .map((r) => r.id)
        .filter((id) => id !== "d-empty")
        .sort(),
    );

    // The days themselves: d-night (23:30 CET) on the 25th, d-late (00:30 CET) on the 26th in Berlin, the 25th in UTC.
    const byDay = (filter: { tz: string }) => {
      const report = activityByDay(db, filter);
      const table = activityTable(report);
      return Object.fromEntries(
        report.days
          .map((d, i) => [d.date, table.links?.["Chats started"]?.[i]] as const)
          .filter(([, h]) => h)
          .map(([date, h]) => [date, listedRows(folderRows, h)]),
      );
    };
    expect(byDay({ tz: "Europe/Berlin" })).toEqual({
      "2026-10-24": ["d-early", "d-span"],
      "2026-10-25": ["d-night", "d-old"],
      "2026-10-26": ["d-late"],
    });
    expect(byDay({ tz: "UTC" })).toEqual({
      "2026-10-24": ["d-early", "d-span"],
      "2026-10-25": ["d-late", "d-night", "d-old"],
    });
    const report = activityByDay(db, { tz: "Europe/Berlin", cwd: "/work/b" });
    const i = report.days.findIndex((d) => d.date === "2026-10-25");
    expect(activityTable(report).links?.["Chats started"]?.[i]).toBe(
      "/chats?folder=--%252Fwork%252Fb--&started=2026-10-25&tz=Europe%2FBerlin",
    );
  });

  it("lists each working folder's chats, over the index and over the folder, as its count counts them", () => {
    const filters = [
      { tz: "Europe/Berlin" },
      { tz: "Europe/Berlin", since: "2026-10-25", until: "2026-10-25" },
      { tz: "UTC", since: "2026-10-25", until: "2026-10-25" },
      { tz: "Europe/Berlin", since: "2026-10-25" },
      { tz: "Europe/Berlin", until: "2026-10-24" },
      { tz: "Europe/Berlin", cwd: "/work/a" },
      { tz: "Europe/Berlin", cwd: "", model: "beta" },
    ];
    for (const filter of filters) {
      const report = activityByDay(db, filter);
      const table = activityFolderTable(report);
      expect(report.folders.length).toBeGreaterThan(0);
      for (const [i, f] of report.folders.entries()) {
        const href = table.links?.Chats?.[i];
        const listed = listedRows(indexRows, href);
        expect(listed, `${f.cwd} ${JSON.stringify(filter)}`).toHaveLength(f.chats);
        expect(listedRows(folderRows, href), `${f.cwd} over the folder`).toEqual(listed);
      }
    }
    // Undated, a folder's count is every chat in it, d-empty too; dated, those that started on the days.
    const folders = activityByDay(db, { tz: "Europe/Berlin" });
    const a = folders.folders.findIndex((f) => f.cwd === "/work/a");
    expect(listedRows(folderRows, activityFolderTable(folders).links?.Chats?.[a])).toEqual([
      "d-empty",
      "d-old",
      "d-span",
    ]);
    const dated = activityByDay(db, { tz: "Europe/Berlin", since: "2026-10-25", until: "2026-10-26" });
    const b = dated.folders.findIndex((f) => f.cwd === "/work/b");
    expect(activityFolderTable(dated).links?.Chats?.[b]).toBe(
      "/chats?folder=--%252Fwork%252Fb--&started=2026-10-25..2026-10-26&tz=Europe%2FBerlin",
    );
    expect(listedRows(folderRows, activityFolderTable(dated).links?.Chats?.[b])).toEqual(["d-night"]);
  });

  it("reads a start-day filter as the list's address spells it", () => {
    expect(readStarted("2026-10-25")).toEqual({ from: "2026-10-25", to: "2026-10-25" });
    expect(readStarted("2026-10-24..2026-10-26")).toEqual({ from: "2026-10-24", to: "2026-10-26" });
    expect(readStarted("2026-10-24..")).toEqual({ from: "2026-10-24", to: null });
    expect(readStarted("..2026-10-26")).toEqual({ from: null, to: "2026-10-26" });
    for (const bad of ["", "..", "2026-02-30", "20261025", "2026-10-24..2026-10-25..2026-10-26", "yesterday"])
      expect(readStarted(bad), bad).toBeNull();
    for (const days of [
      { from: "2026-10-25", to: "2026-10-25" },
      { from: "2026-10-24", to: "2026-10-26" },
      { from: null, to: "2026-10-26" },
      { from: "2026-10-24", to: null },
    ])
      expect(readStarted(startedParam(days))).toEqual(days);
    // A zone this system does not know keeps no chat (the list says why).
    const f = { ...NO_FILTERS, started: "2026-10-25", tz: "Mars/Olympus" };
    expect(filterRows(folderRows, f)).toEqual([]);
  });

  it("lists each format's logs in the chat list's format filter; each top chat links to its own lines", () => {
    for (const cwd of [undefined, "/work/a", ""]) {
      const report = storageReport(db, { cwd });
      const table = formatTable(report);
      expect(report.byFormat.filter((g) => g.format !== null).length).toBeGreaterThanOrEqual(cwd === "" ? 1 : 2);
      for (const [i, g] of report.byFormat.entries()) {
        const href = table.links?.Logs?.[i];
        const listed = listedRows(indexRows, href);
        expect(listed, `format ${g.format} in ${cwd}`).toHaveLength(g.logs);
        expect(listedRows(folderRows, href)).toEqual(listed);
      }
    }
    const top = usageByChat(db, { tz: "Europe/Berlin" }, 20).chats;
    expect(chatUsageTable(top).links?.["Total tokens"]).toEqual(
      top.map((c) => `/chats/${encodeURIComponent(c.id)}?view=raw&usage=1`),
    );
    const largest = storageReport(db).largest;
    expect(largestChatsTable(storageReport(db)).links?.["Total bytes"]).toEqual(
      largest.map((c) => `/chats/${encodeURIComponent(c.id)}`),
    );
  });

  it("sums each storage total's chats, chat by chat, to that total", () => {
    const report = storageReport(db);
    expect(listedBytes(db, followed(filteredChatsHref(storageFilter(undefined))))).toEqual(report.totals);
    const table = storageFolderTable(report);
    expect(report.folders.length).toBeGreaterThanOrEqual(2);
    expect(report.folders.some((f) => f.cwd === null)).toBe(true);
    for (const [i, folder] of report.folders.entries()) {
      const { cwd: _cwd, ...sums } = folder;
      expect(listedBytes(db, followed(table.links?.["Total bytes"]?.[i])), `folder ${folder.cwd}`).toEqual(sums);
      expect(table.links?.Chats?.[i]).toBe(table.links?.["Total bytes"]?.[i]);
    }
    // A folder's storage report (the page filtered to one folder) links to that folder's chats.
    const one = report.folders.find((f) => f.cwd !== null)?.cwd as string;
    expect(listedBytes(db, followed(filteredChatsHref(storageFilter(one))))).toEqual(
      storageReport(db, { cwd: one }).totals,
    );
    // Dates and models do not narrow a storage list: the address keeps only the folder.
    expect(readChatsFilter({ sum: "bytes", cwd: "", from: "2026-10-25", model: "beta" })).toEqual({
      sum: "bytes",
      cwd: "",
    });
    expect(describeChatsFilter({ sum: "bytes", cwd: one })).toBe(`Chats in ${one}, with their bytes on disk`);
    expect(describeChatsFilter({ model: "", tz: "UTC" })).toBe(
      "Chats active with messages that name no model (days in UTC)",
    );
  });
});
