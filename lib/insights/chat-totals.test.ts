import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../cli/main";
import { makeDemo } from "../../scripts/demo";
import { type InsightsFixture, makeDstFixture } from "../../test-support/insights/test-fixture";
import { closeAllIndexes } from "../search-index";

// `usage chats --json` against `usage daily --json`: per-chat totals add up to the daily totals for the same filters.

type Sums = { messages: number; messagesWithoutUsage: number; inputTokens: number; outputTokens: number };

async function cli(roots: { logs: string; state: string }, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...argv, "--logs", roots.logs, "--state", roots.state, "--json"], {
    out: (t: string) => out.push(t),
    err: (t: string) => err.push(t),
  });
  if (code !== 0) throw new Error(`exit ${code}: ${out.join("\n")} ${err.join("\n")}`);
  return JSON.parse(out.join("\n"));
}

const pick = (s: Sums) => ({
  messages: s.messages,
  messagesWithoutUsage: s.messagesWithoutUsage,
  inputTokens: s.inputTokens,
  outputTokens: s.outputTokens,
});
const add = (rows: Sums[]) =>
  rows.reduce(
    (t, r) => ({
      messages: t.messages + r.messages,
      messagesWithoutUsage: t.messagesWithoutUsage + r.messagesWithoutUsage,
      inputTokens: t.inputTokens + r.inputTokens,
      outputTokens: t.outputTokens + r.outputTokens,
    }),
    { messages: 0, messagesWithoutUsage: 0, inputTokens: 0, outputTokens: 0 },
  );

/** Checks one filter: the chats' sums, their `totals`, the daily rows' sums and the daily totals are one figure. */
async function expectSameTotals(roots: { logs: string; state: string }, filter: string[]) {
  const daily = await cli(roots, "usage", "daily", ...filter);
  const chats = await cli(roots, "usage", "chats", "--limit", "0", ...filter);
  const top = await cli(roots, "usage", "chats", "--limit", "2", ...filter);
  const expected = pick(daily.totals);
  expect(add(daily.daily), `daily rows, ${filter.join(" ")}`).toEqual(expected);
  expect(add(chats.chats), `chats, ${filter.join(" ")}`).toEqual(expected);
  expect(pick(chats.totals), `chats' totals, ${filter.join(" ")}`).toEqual(expected);
  expect(chats.totals.chats).toBe(chats.chats.length);
  expect(top.totals).toEqual(chats.totals); // the totals are every chat's, not only the listed ones'
  expect(chats.scope).toEqual(daily.scope);
  return expected;
}

describe("usage chats adds up to usage daily, across Berlin's change back to winter time", () => {
  let fx: InsightsFixture;
  beforeAll(async () => {
    fx = await makeDstFixture();
  }, 60_000);
  afterAll(() => {
    closeAllIndexes();
    rmSync(fx.dir, { recursive: true, force: true });
  });

  it("gives the same totals for every filter, and the day of the change holds its 25 hours", async () => {
    const berlin = ["--tz", "Europe/Berlin"];
    for (const filter of [
      [],
      berlin,
      [...berlin, "--since", "2026-10-25", "--until", "2026-10-25"],
      [...berlin, "--since", "2026-10-25"],
      [...berlin, "--until", "2026-10-24"],
      ["--tz", "UTC", "--since", "2026-10-25", "--until", "2026-10-25"],
      [...berlin, "--model", "beta"],
      [...berlin, "--cwd", "/work/a", "--since", "2026-10-25", "--until", "2026-10-25"],
      [...berlin, "--cwd", ""],
    ])
      await expectSameTotals(fx, filter);
    // 00:00 CEST to 24:00 CET: both passes of 02:30 and 23:59 CET, not 23:59 CEST nor 00:00 CET on the 26th.
    expect(await expectSameTotals(fx, [...berlin, "--since", "2026-10-25", "--until", "2026-10-25"])).toEqual({
      messages: 10,
      messagesWithoutUsage: 2,
      inputTokens: 13 + 17 + 19 + 23,
      outputTokens: 2 + 3 + 4 + 5,
    });
  });
});

describe("usage chats adds up to usage daily over the demo data", () => {
  let dir: string;
  let roots: { logs: string; state: string };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "oda-demo-totals-"));
    const demo = await makeDemo({ out: join(dir, "demo"), seed: 7, chats: 24 });
    roots = { logs: demo.logs, state: join(dir, "state") };
  }, 120_000);
  afterAll(() => {
    closeAllIndexes();
    rmSync(dir, { recursive: true, force: true });
  });

  it("gives the same totals with no filter, by zone, by dates, by model and by folder", async () => {
    const all = await expectSameTotals(roots, []);
    expect(all.inputTokens).toBeGreaterThan(0);
    const { chats } = await cli(roots, "usage", "chats", "--limit", "0");
    const models = await cli(roots, "usage", "daily");
    const model = (models.totals.modelBreakdowns as { modelName: string }[]).find((m) => m.modelName)?.modelName;
    const cwd = (chats as { cwd: string | null }[]).find((c) => c.cwd)?.cwd;
    for (const filter of [
      ["--tz", "Europe/Berlin"],
      ["--tz", "Asia/Kathmandu", "--since", "2026-11-01"],
      ["--tz", "Europe/Berlin", "--until", "2026-10-25"],
      ["--model", String(model)],
      ["--cwd", String(cwd)],
    ])
      await expectSameTotals(roots, filter);
  });
});
