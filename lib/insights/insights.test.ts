import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import {
  diskSizes,
  growChat,
  type InsightsFixture,
  makeInsightsFixture,
} from "../../test-support/insights/test-fixture";
import { encodeName, groupName } from "../chats";
import { closeAllIndexes, refreshIndex } from "../search-index";

// Every number of `oda-admin usage … --json` and `oda-admin storage --json` over generated logs with known totals.

let fx: InsightsFixture;
let firstRefresh: Awaited<ReturnType<typeof refreshIndex>>;
let secondRefresh: Awaited<ReturnType<typeof refreshIndex>>;
let dailyBeforeGrowth: unknown;

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, "--logs", fx.logs, "--state", fx.state, "--json", "--no-refresh"], {
    out: (t: string) => out.push(t),
    err: (t: string) => err.push(t),
  });
  if (code !== 0) throw new Error(`exit ${code}: ${out.join("\n")} ${err.join("\n")}`);
  return JSON.parse(out.join("\n"));
}

const s = (messages: number, input: number, output: number, bare = 0) => ({
  messages,
  messagesWithoutUsage: bare,
  inputTokens: input,
  outputTokens: output,
  totalTokens: input + output,
});
/** A period row with its sums, active chats and models (breakdowns checked separately). */
const p = (period: string, chats: number, sums: ReturnType<typeof s>, models: string[]) => ({
  period,
  chats,
  modelsUsed: models,
  ...sums,
});
const rows = (doc: { [k: string]: unknown }, key: string) =>
  (doc[key] as Record<string, unknown>[]).map(({ modelBreakdowns: _b, ...r }) => r);

beforeAll(async () => {
  fx = await makeInsightsFixture();
  firstRefresh = await refreshIndex(fx.state, fx.logs);
  dailyBeforeGrowth = await cli("usage", "daily", "--tz", "Europe/Paris");
  await growChat(fx.logs);
  secondRefresh = await refreshIndex(fx.state, fx.logs);
}, 60_000);

afterAll(() => {
  closeAllIndexes();
  rmSync(fx.dir, { recursive: true, force: true });
});

describe("usage from the index", () => {
  it("reads only the new part of a chat that grew between two refreshes", () => {
    expect(firstRefresh).toMatchObject({ chats: 5, added: 5 });
    expect(secondRefresh).toMatchObject({ chats: 5, changed: 1, appended: 1, reindexed: 0 });
    expect(rows(dailyBeforeGrowth as Record<string, unknown>, "daily").map((r) => r.period)).not.toContain(
      "2026-11-03",
    );
  });

  it("groups days in Paris across its DST change and a month boundary, with model breakdowns", async () => {
    const doc = await cli("usage", "daily", "--tz", "Europe/Paris");
    expect(doc.scope).toEqual({ timezone: "Europe/Paris", since: null, until: null, cwd: null, model: null });
    expect(rows(doc, "daily")).toEqual([
      p("2026-03-28", 1, s(2, 100, 10), ["alpha"]),
      // 22:30 UTC on the 29th is 00:30 on the 30th once Paris is on summer time (+2).
      p("2026-03-30", 1, s(2, 50, 5), ["alpha"]),
      p("2026-10-31", 1, s(2, 1000, 100), ["alpha"]),
      p("2026-11-01", 2, s(4, 200, 20, 2), ["beta"]),
      p("2026-11-02", 1, s(2, 300, 30), ["gamma"]),
      p("2026-11-03", 1, s(2, 400, 40), ["gamma"]),
      p("2026-11-05", 1, s(2, 0, 0), []),
    ]);
    expect(doc.daily[3].modelBreakdowns).toEqual([
      { modelName: "", ...s(3, 0, 0, 2) },
      { modelName: "beta", ...s(1, 200, 20) },
    ]);
    expect(doc.totals).toEqual({
      ...s(16, 2050, 205, 2),
      modelBreakdowns: [
        { modelName: "alpha", ...s(3, 1150, 115) },
        { modelName: "gamma", ...s(2, 700, 70) },
        { modelName: "beta", ...s(1, 200, 20) },
        { modelName: "", ...s(10, 0, 0, 2) },
      ],
    });
    expect(doc.note).toBe(
      "2 messages come from format 1 chats, which record no token usage: they are counted as messages with no tokens, not estimated.",
    );
  });

  it("groups the same messages by UTC day and by Kathmandu's +5:45", async () => {
    expect(rows(await cli("usage", "daily", "--tz", "UTC"), "daily")).toEqual([
      p("2026-03-28", 1, s(2, 100, 10), ["alpha"]),
      p("2026-03-29", 1, s(2, 50, 5), ["alpha"]),
      p("2026-10-31", 2, s(4, 1200, 120), ["alpha", "beta"]),
      p("2026-11-01", 1, s(2, 0, 0, 2), []),
      p("2026-11-02", 1, s(2, 300, 30), ["gamma"]),
      p("2026-11-03", 1, s(2, 400, 40), ["gamma"]),
      p("2026-11-05", 1, s(2, 0, 0), []),
    ]);
    const kathmandu = rows(await cli("usage", "daily", "--tz", "Asia/Kathmandu"), "daily");
    expect(kathmandu.slice(0, 3)).toEqual([
      p("2026-03-29", 1, s(2, 100, 10), ["alpha"]),
      p("2026-03-30", 1, s(2, 50, 5), ["alpha"]),
      p("2026-11-01", 3, s(6, 1200, 120, 2), ["alpha", "beta"]),
    ]);
  });

  it("sums weeks from Monday and months in the chosen zone", async () => {
    expect(rows(await cli("usage", "weekly", "--tz", "Europe/Paris"), "weekly")).toEqual([
      p("2026-03-23", 1, s(2, 100, 10), ["alpha"]),
      p("2026-03-30", 1, s(2, 50, 5), ["alpha"]),
      p("2026-10-26", 3, s(6, 1200, 120, 2), ["alpha", "beta"]),
      p("2026-11-02", 2, s(6, 700, 70), ["gamma"]),
    ]);
    expect(rows(await cli("usage", "monthly", "--tz", "Europe/Paris"), "monthly")).toEqual([
      p("2026-03", 1, s(4, 150, 15), ["alpha"]),
      p("2026-10", 1, s(2, 1000, 100), ["alpha"]),
      p("2026-11", 4, s(10, 900, 90, 2), ["beta", "gamma"]),
    ]);
    expect(rows(await cli("usage", "monthly", "--tz", "UTC"), "monthly")).toEqual([
      p("2026-03", 1, s(4, 150, 15), ["alpha"]),
      p("2026-10", 2, s(4, 1200, 120), ["alpha", "beta"]),
      p("2026-11", 3, s(8, 700, 70, 2), ["gamma"]),
    ]);
  });

  it("narrows by local dates, working folder and model", async () => {
    const range = await cli("usage", "daily", "--tz", "Europe/Paris", "--since", "20261101", "--until", "2026-11-02");
    expect(rows(range, "daily").map((r) => r.period)).toEqual(["2026-11-01", "2026-11-02"]);
    expect(range.totals).toMatchObject(s(6, 500, 50, 2));
    const folder = await cli("usage", "monthly", "--tz", "Europe/Paris", "--cwd", "/work/a");
    expect(folder.totals).toMatchObject(s(8, 350, 35, 2));
    const model = await cli("usage", "daily", "--tz", "UTC", "--model", "alpha");
    expect(rows(model, "daily")).toEqual([
      p("2026-03-28", 1, s(1, 100, 10), ["alpha"]),
      p("2026-03-29", 1, s(1, 50, 5), ["alpha"]),
      p("2026-10-31", 1, s(1, 1000, 100), ["alpha"]),
    ]);
  });

  it("ranks chats and folders by tokens", async () => {
    const chats = await cli("usage", "chats", "--tz", "Europe/Paris");
    expect(
      chats.chats.map((c: { id: string; totalTokens: number; messages: number }) => [c.id, c.totalTokens, c.messages]),
    ).toEqual([
      ["c-beta", 1100, 2],
      ["c-grow", 770, 4],
      ["c-alpha", 385, 6],
      ["c-old", 0, 2],
      ["c-upg", 0, 2],
    ]);
    expect(chats.chats[2]).toMatchObject({ cwd: "/work/a", modelsUsed: ["alpha", "beta"], ...s(6, 350, 35) });
    // Narrowed by model or dates, the sums come from the usage rows rather than the chats' totals.
    const alpha = await cli("usage", "chats", "--model", "alpha");
    expect(
      alpha.chats.map((c: { id: string; totalTokens: number; messages: number }) => [c.id, c.totalTokens, c.messages]),
    ).toEqual([
      ["c-beta", 1100, 1],
      ["c-alpha", 165, 2],
    ]);
    const november = await cli("usage", "folders", "--tz", "UTC", "--since", "2026-11-01");
    expect(november.folders).toEqual([
      { cwd: null, chats: 1, ...s(4, 700, 70) },
      { cwd: "/work/a", chats: 1, ...s(2, 0, 0, 2) },
      { cwd: "/work/c", chats: 1, ...s(2, 0, 0) },
    ]);
    const folders = await cli("usage", "folders");
    expect(folders.folders).toEqual([
      { cwd: "/work/b", chats: 1, ...s(2, 1000, 100) },
      { cwd: null, chats: 1, ...s(4, 700, 70) },
      { cwd: "/work/a", chats: 2, ...s(8, 350, 35, 2) },
      { cwd: "/work/c", chats: 1, ...s(2, 0, 0) },
    ]);
  });

  it("refuses an unknown zone and a bad date with a sentence", async () => {
    const out: string[] = [];
    const code = await main(
      ["usage", "daily", "--logs", fx.logs, "--state", fx.state, "--tz", "Mars/Base", "--no-refresh"],
      {
        out: (t) => out.push(t),
        err: (t) => out.push(t),
      },
    );
    // A bad option value is a usage error.
    expect(code).toBe(2);
    expect(out.join("")).toBe('"Mars/Base" is not a time zone this system knows (try an IANA name like Europe/Paris).');
    await expect(cli("usage", "daily", "--since", "2026-13-01")).rejects.toThrow(
      '"message": "--since takes a date as YYYY-MM-DD or YYYYMMDD; \\"2026-13-01\\" is not one."',
    );
  });
});

describe("storage from the index", () => {
  it("counts every file's bytes as stat sees them, and the decompressed size of complete lines", async () => {
    const doc = await cli("storage");
    const ids = ["c-alpha", "c-beta", "c-old", "c-grow", "c-upg"];
    const cwd: Record<string, string | null> = {
      "c-alpha": "/work/a",
      "c-beta": "/work/b",
      "c-old": "/work/a",
      "c-grow": null,
      "c-upg": "/work/c",
    };
    const disk = Object.fromEntries(
      ids.map((id) => [id, diskSizes(join(fx.logs, groupName(cwd[id] ?? null), encodeName(id)))]),
    );
    const dec = (id: string) =>
      id === "c-beta" ? fx.betaCompleteBytes : execFileSync("zstd", ["-dc", d(id).currentPath]).length;
    const sum = (f: (id: string) => number) => ids.reduce((t, id) => t + f(id), 0);
    const d = (id: string) => disk[id] as ReturnType<typeof diskSizes>;
    expect(doc.totals).toEqual({
      chats: 5,
      currentBytes: sum((id) => d(id).current),
      decompressedBytes: sum(dec),
      olderBytes: d("c-upg").older,
      olderLogs: 1,
      checkpointBytes: sum((id) => d(id).cache),
      checkpoints: 5,
      lockBytes: d("c-beta").lock,
      locks: 1,
      totalBytes: sum((id) => d(id).current + d(id).older + d(id).cache + d(id).lock),
    });
    expect(d("c-beta").lock).toBeGreaterThan(0);
    expect(doc.byFormat).toEqual([
      { format: 1, logs: 1, bytes: d("c-old").current, decompressedBytes: dec("c-old") },
      {
        format: 4,
        logs: 4,
        bytes: sum((id) => (id === "c-old" ? 0 : d(id).current)),
        decompressedBytes: sum((id) => (id === "c-old" ? 0 : dec(id))),
      },
    ]);
    expect(doc.folders.find((f: { cwd: string }) => f.cwd === "/work/a")).toMatchObject({
      chats: 2,
      currentBytes: d("c-alpha").current + d("c-old").current,
      checkpointBytes: d("c-alpha").cache + d("c-old").cache,
    });
    expect(doc.largest.map((c: { id: string }) => c.id)).toEqual(
      [...ids].sort((a, b) => {
        const t = (id: string) => d(id).current + d(id).older + d(id).cache + d(id).lock;
        return t(b) - t(a) || (a < b ? -1 : 1);
      }),
    );
    expect(doc.largest.find((c: { id: string }) => c.id === "c-upg")).toMatchObject({
      olderBytes: d("c-upg").older,
      olderLogs: 1,
      format: 4,
    });
  });
});
