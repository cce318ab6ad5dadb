import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { growChat, type InsightsFixture, makeInsightsFixture } from "../../test-support/insights/test-fixture";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";
import { closeAllIndexes, handleOf, refreshIndex } from "../search-index";
import { type InsightsOverview, insightsOverview } from ".";
import {
  activityFolderTable,
  activityTable,
  budgetTable,
  chatUsageTable,
  folderUsageTable,
  memorySetTable,
  modelTable,
  periodTable,
  toCsv,
} from "./tables";

// The Insights page's tables (its table views and CSV files) over the same generated logs as the CLI tests.

let fx: InsightsFixture;
let o: InsightsOverview;
let cleanupHome: () => Promise<void>;

beforeAll(async () => {
  fx = await makeInsightsFixture();
  await growChat(fx.logs);
  await refreshIndex(fx.state, fx.logs);
  const { home, cleanup } = await makeHome();
  cleanupHome = cleanup;
  // "## Lang\n" and 29 characters: 37 code points, 10 tokens; the workspace's part follows one empty line.
  await putFile(home, "memory/global/0000000a", memoryText("Lang", "x".repeat(29)));
  await putFile(
    home,
    "memory/workspaces/w1/0000000b",
    memoryText("Mine", "y".repeat(29), "enabled: true\nsource: ai\n"),
  );
  await putFile(home, "memory/workspaces/w1/0000000c", memoryText("Off", "z", "enabled: false\nsource: user\n"));
  await putFile(home, "memory/workspaces/w1/0000000d", "no frontmatter\n");
  o = await insightsOverview(handleOf(fx.state, fx.logs).db, home, { tz: "Europe/Paris", period: "monthly" });
}, 60_000);

afterAll(async () => {
  closeAllIndexes();
  rmSync(fx.dir, { recursive: true, force: true });
  await cleanupHome();
});

describe("the Insights page's tables", () => {
  it("list tokens and messages per month, model, folder and chat", () => {
    const months = [
      "/chats?from=2026-03-01&to=2026-03-31&tz=Europe%2FParis",
      "/chats?from=2026-10-01&to=2026-10-31&tz=Europe%2FParis",
      "/chats?from=2026-11-01&to=2026-11-30&tz=Europe%2FParis",
    ];
    expect(periodTable(o.usage)).toEqual({
      caption: "Tokens and messages per month, Europe/Paris",
      columns: expect.any(Array),
      rows: [
        ["2026-03", 4, 0, 150, 15, 165, 1, "alpha"],
        ["2026-10", 2, 0, 1000, 100, 1100, 1, "alpha"],
        ["2026-11", 10, 2, 900, 90, 990, 4, "beta, gamma"],
      ],
      // Each month's total links to its chats: the month's days, in the page's zone.
      links: {
        "Total tokens": months,
        Chats: months,
      },
    });
    expect(periodTable(o.usage).columns.map((c) => c.label)).toEqual([
      "Month",
      "Messages",
      "Format 1 messages",
      "Input tokens",
      "Output tokens",
      "Total tokens",
      "Chats",
      "Models",
    ]);
    expect(modelTable(o.usage).rows).toEqual([
      ["alpha", 3, 0, 1150, 115, 1265],
      ["gamma", 2, 0, 700, 70, 770],
      ["beta", 1, 0, 200, 20, 220],
      ["(no model)", 10, 2, 0, 0, 0],
    ]);
    expect(folderUsageTable(o.folders).rows).toEqual([
      ["/work/b", 1, 2, 0, 1000, 100, 1100],
      ["(no working folder)", 1, 4, 0, 700, 70, 770],
      ["/work/a", 2, 8, 2, 350, 35, 385],
      ["/work/c", 1, 2, 0, 0, 0, 0],
    ]);
    expect(chatUsageTable(o.chats).rows.map((r) => [r[0], r[2], ...r.slice(3)])).toEqual([
      ["c-beta", "/work/b", 2, 0, 1000, 100, 1100, "alpha"],
      ["c-grow", "(no working folder)", 4, 0, 700, 70, 770, "gamma"],
      ["c-alpha", "/work/a", 6, 0, 350, 35, 385, "alpha, beta"],
      ["c-old", "/work/a", 2, 2, 0, 0, 0, ""],
      ["c-upg", "/work/c", 2, 0, 0, 0, 0, ""],
    ]);
  });

  it("list chats started and active per local day, and chats per folder", () => {
    expect(activityTable(o.activity).rows).toEqual([
      ["2026-03-28", 1, 1],
      ["2026-03-30", 0, 1],
      ["2026-10-31", 1, 1],
      ["2026-11-01", 1, 2],
      ["2026-11-02", 1, 1],
      ["2026-11-03", 0, 1],
      ["2026-11-05", 1, 1],
    ]);
    expect(activityFolderTable(o.activity).rows).toEqual([
      ["/work/a", 2],
      ["(no working folder)", 1],
      ["/work/b", 1],
      ["/work/c", 1],
    ]);
  });

  it("list memory tokens per workspace against the limit, and memories per set and source", () => {
    expect(budgetTable(o.memory as NonNullable<typeof o.memory>).rows).toEqual([
      ["(no workspace)", 10, 0, 10, 8000],
      // 37 + 2 (the empty line between) + 37 code points: 19 tokens.
      ["w1", 10, 10, 19, 8000],
    ]);
    expect(memorySetTable(o.memory as NonNullable<typeof o.memory>).rows).toEqual([
      ["global", 1, 1, 0, 1, 0, 0],
      ["workspace w1", 2, 1, 1, 1, 1, 1],
    ]);
  });

  it("download as CSV with every number and quoted fields", () => {
    expect(toCsv(activityFolderTable(o.activity))).toBe(
      "Working folder,Chats\r\n/work/a,2\r\n(no working folder),1\r\n/work/b,1\r\n/work/c,1\r\n",
    );
    expect(toCsv({ caption: "", columns: [{ label: 'a "b"' }], rows: [["x,y"]] })).toBe('"a ""b"""\r\n"x,y"\r\n');
  });
});
