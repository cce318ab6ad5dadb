import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllIndexes, handleOf, refreshIndex } from "../index";
import type { Db } from "../index/db";
import {
  activityByDay,
  chatsForFilter,
  type StorageSums,
  storageChatsForFilter,
  storageReport,
  type UsageSums,
  usageByFolder,
  usageByPeriod,
} from ".";
import { type ChatsFilter, chatsHref, describeChatsFilter, readChatsFilter, storageFilter } from "./links";
import { activityTable, folderUsageTable, modelTable, periodTable, storageFolderTable } from "./tables";
import { type InsightsFixture, makeDstFixture } from "./test-fixture";

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

describe("the chats behind each Insights total, across Berlin's change back to winter time", () => {
  let fx: InsightsFixture;
  let db: Db;
  beforeAll(async () => {
    fx = await makeDstFixture();
    await refreshIndex(fx.state, fx.logs);
    db = handleOf(fx.state, fx.logs).db;
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
    expect(listedSum(db, f).inputTokens).toBe(13 + 17 + 19 + 23);
    expect(
      chatsForFilter(db, f)
        .chats.map((c) => c.id)
        .sort(),
    ).toEqual(["d-old", "d-span"]);
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
    expect(chatsHref(f as ChatsFilter)).toBe("/chats?from=2026-10-24&to=2026-10-26&model=beta&cwd=&tz=Europe%2FBerlin");
    expect(describeChatsFilter(f as ChatsFilter)).toBe(
      "Chats active 2026-10-24 to 2026-10-26 with model beta with no working folder (days in Europe/Berlin)",
    );
  });

  it("sums the page's overall total's chats to it", () => {
    const report = usageByPeriod(db, "daily", { tz: "Europe/Berlin", since: "2026-10-25" });
    const f = followed(chatsHref({ tz: "Europe/Berlin", from: "2026-10-25" }));
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
    // The 25-hour day in Berlin: its two chats, as its token total lists them.
    const report = activityByDay(db, { tz: "Europe/Berlin" });
    const i = report.days.findIndex((d) => d.date === "2026-10-25");
    expect(report.days[i]?.active).toBe(2);
    expect(followed(activityTable(report).links?.["Chats active"]?.[i])).toEqual({
      from: "2026-10-25",
      to: "2026-10-25",
      tz: "Europe/Berlin",
    });
  });

  it("sums each storage total's chats, chat by chat, to that total", () => {
    const report = storageReport(db);
    expect(listedBytes(db, followed(chatsHref(storageFilter(undefined))))).toEqual(report.totals);
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
    expect(listedBytes(db, followed(chatsHref(storageFilter(one))))).toEqual(storageReport(db, { cwd: one }).totals);
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
