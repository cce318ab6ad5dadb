import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAllIndexes, handleOf, refreshIndex } from "../index";
import type { Db } from "../index/db";
import { chatsForFilter, type UsageSums, usageByFolder, usageByPeriod } from ".";
import { type ChatsFilter, chatsHref, describeChatsFilter, readChatsFilter } from "./links";
import { folderUsageTable, modelTable, periodTable } from "./tables";
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
        for (const [i, row] of report.rows.entries())
          expect(listedSum(db, followed(table.totalLinks?.[i])), `${period} ${row.period} ${filter.tz}`).toEqual(
            pick(row),
          );
      }
    }
    // The day of the change holds its 25 hours: 00:00 CEST to 24:00 CET; d-late (00:30 CET on the 26th) and
    // d-early (14:00 CEST on the 24th) are not among its chats.
    const day = usageByPeriod(db, "daily", { tz: "Europe/Berlin" });
    const i = day.rows.findIndex((r) => r.period === "2026-10-25");
    const f = followed(periodTable(day).totalLinks?.[i]);
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
      let linked = 0;
      for (const [i, m] of report.totals.modelBreakdowns.entries()) {
        // Messages that name no model (users' lines, format 1) have no filter of their own: no link.
        if (!m.modelName) {
          expect(models.totalLinks?.[i]).toBeNull();
          continue;
        }
        linked++;
        expect(listedSum(db, followed(models.totalLinks?.[i])), `model ${m.modelName}`).toEqual(pick(m));
      }
      expect(linked).toBeGreaterThanOrEqual(2);
      const { folders } = usageByFolder(db, filter);
      const table = folderUsageTable(folders, report.scope);
      expect(folders.some((f) => f.cwd === null)).toBe(true);
      for (const [i, folder] of folders.entries())
        expect(listedSum(db, followed(table.totalLinks?.[i])), `folder ${folder.cwd}`).toEqual(pick(folder));
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
});
