import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeName, groupName } from "../lib/chats/names";
import {
  activityByDay,
  type ChatsFilter,
  chatsForFilter,
  type InsightsFilter,
  type Period,
  storageChatsForFilter,
  storageReport,
  usageByFolder,
  usageByPeriod,
} from "../lib/insights";
import { startedQuarters, startedWithin } from "../lib/insights/started";
import { closeAllIndexes, handleOf, listChatsFromIndex, refreshIndex } from "../lib/search-index";
import { makeDemoInto } from "../scripts/demo";
import { expect, expectAccessible, type Oda, seed, test } from "./fixtures";

/** The Insights page over demo data: its numbers are the CLI's (computed here from an index of the same logs). */

/** A chat whose only log is of the other form (plain in a zstd folder), and a chat folder with no log file. */
const WRONG_FORM = "c-e2e-wrong-form";
const NO_LOG = "c-e2e-no-log";

test.use({
  timezoneId: "Europe/Paris",
  odaSetup: seed(async ({ home, logs }) => {
    await makeDemoInto({ home, logs, seed: 3, chats: 40 });
    const bad = join(logs, groupName("/work/unusable"), encodeName(WRONG_FORM));
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, "session.v4.jsonl"), `{"type":"session","format":4,"id":"${WRONG_FORM}"}\n`);
    mkdirSync(join(logs, groupName(null), encodeName(NO_LOG)), { recursive: true });
  }),
});

/** What lib/insights says for the demo logs, from an index of our own. */
async function expected(oda: Oda, period: Period, filter: InsightsFilter) {
  const state = mkdtempSync(join(tmpdir(), "oda-insights-e2e-"));
  try {
    await refreshIndex(state, oda.logs);
    const db = handleOf(state, oda.logs).db;
    return { usage: usageByPeriod(db, period, filter), folders: usageByFolder(db, filter).folders };
  } finally {
    closeAllIndexes();
    rmSync(state, { recursive: true, force: true });
  }
}

/** The chats lib/insights says a chat list filter lists, from an index of our own. */
async function expectedChats(oda: Oda, filter: ChatsFilter) {
  const state = mkdtempSync(join(tmpdir(), "oda-insights-e2e-"));
  try {
    await refreshIndex(state, oda.logs);
    return chatsForFilter(handleOf(state, oda.logs).db, filter);
  } finally {
    closeAllIndexes();
    rmSync(state, { recursive: true, force: true });
  }
}

const n = (v: number) => v.toLocaleString("en");

test.describe("insights", () => {
  test("usage per day as a table, a folder filter, the same numbers as the CLI, axe clean", async ({ page, oda }) => {
    // Two index builds (the page's and ours) and two axe runs, on a shared machine.
    test.setTimeout(180_000);
    const all = await expected(oda, "daily", { tz: "Europe/Paris" });
    expect(all.usage.rows.length).toBeGreaterThan(0);
    await page.goto("/insights");
    // The browser's zone is put into the URL, and the page re-renders once the index is built.
    await expect(page).toHaveURL(/tz=Europe%2FParis/);
    await expect(page.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 60_000 });
    const t = all.usage.totals;
    await expect(
      page.getByText(`${n(t.inputTokens)} input and ${n(t.outputTokens)} output tokens (${n(t.totalTokens)} in all)`),
    ).toBeVisible({ timeout: 30_000 });

    const card = page.getByRole("region", { name: "Tokens per day, by model" });
    await expect(card.getByRole("img", { name: /^Tokens per day, stacked by model/ })).toBeVisible();
    await card.getByRole("button", { name: "Table view" }).click();
    await expect(card.getByRole("button", { name: "Table view" })).toHaveAttribute("aria-pressed", "true");
    const table = card.getByRole("table", { name: /Tokens and messages per day, Europe\/Paris/ });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(all.usage.rows.length);
    for (const [i, r] of all.usage.rows.entries()) {
      await expect(rows.nth(i).locator("th, td")).toHaveText([
        r.period,
        n(r.messages),
        n(r.messagesWithoutUsage),
        n(r.inputTokens),
        n(r.outputTokens),
        n(r.totalTokens),
        n(r.chats),
        r.modelsUsed.join(", "),
      ]);
    }
    await expectAccessible(page);

    // A chart's labels are drawn on a canvas: the whole label of the bar under the pointer is its hover title.
    const models = page.getByRole("region", { name: "Tokens per model" }).getByRole("img");
    const plot = models.locator(".u-over");
    const box = await plot.boundingBox();
    const first = t.modelBreakdowns[0]?.modelName || "(no model)";
    await plot.hover({ position: { x: Math.min(4, (box?.width ?? 8) / 2), y: (box?.height ?? 8) / 2 } });
    await expect(models).toHaveAttribute("title", first);

    // The page says how it counts: which lines, and what is left out.
    await page.getByText("How tokens are counted").click();
    const counting = page.getByRole("group").filter({ hasText: "How tokens are counted" });
    await expect(counting).toContainText("Each chat's current log is read once");
    await expect(counting).toContainText("usage.input_tokens and usage.output_tokens");
    await expect(counting).toContainText("messages whose time cannot be read");
    await expect(counting).toContainText("local to Europe/Paris");

    // A filter: one working folder, grouped by month.
    const folder = all.folders.find((f) => f.cwd !== null)?.cwd as string;
    await page.getByRole("combobox", { name: "Working folder" }).selectOption(folder);
    await page.getByRole("combobox", { name: "Group by" }).selectOption("monthly");
    await page.getByRole("button", { name: "Apply filters" }).click();
    await expect(page).toHaveURL(/period=monthly/);
    const one = await expected(oda, "monthly", { tz: "Europe/Paris", cwd: folder });
    const m = one.usage.totals;
    await expect(
      page.getByText(`${n(m.inputTokens)} input and ${n(m.outputTokens)} output tokens (${n(m.totalTokens)} in all)`),
    ).toBeVisible();
    const monthly = page.getByRole("region", { name: "Tokens per month, by model" });
    await monthly.getByRole("button", { name: "Table view" }).click();
    await expect(monthly.locator("tbody tr")).toHaveCount(one.usage.rows.length);
    await expect(monthly.locator("tbody tr").first().locator("th")).toHaveText(one.usage.rows[0]?.period ?? "");
    const folders = page.getByRole("region", { name: "Tokens per working folder" });
    await folders.getByRole("button", { name: "Table view" }).click();
    await expect(folders.locator("tbody tr")).toHaveCount(1);
    await expect(folders.locator("tbody tr th")).toHaveText(folder);
    await expectAccessible(page);

    // Every total links to the chats it sums: a day's total opens the chat list narrowed to that day's chats.
    const day = all.usage.rows.find((r) => r.chats > 1 && r.totalTokens > 0) ?? all.usage.rows[0];
    if (!day) throw new Error("the demo data has no day");
    const listed = await expectedChats(oda, { from: day.period, to: day.period, tz: "Europe/Paris" });
    expect(listed.chats.length).toBe(day.chats);
    await page.goto("/insights?tz=Europe%2FParis");
    const days = page.getByRole("region", { name: "Tokens per day, by model" });
    await days.getByRole("button", { name: "Table view" }).click();
    const dayRow = days
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: day.period, exact: true }) });
    await dayRow.getByRole("link", { name: n(day.totalTokens), exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/chats\\?from=${day.period}&to=${day.period}&tz=Europe%2FParis$`));
    await expect(page.getByText(`Chats active on ${day.period} (days in Europe/Paris)`)).toBeVisible();
    const chatRows = page.getByRole("table", { name: "Chats in this filter, most tokens first" }).locator("tbody tr");
    await expect(chatRows).toHaveCount(day.chats);
    await expect(chatRows.locator("th")).toHaveText(listed.chats.map((c) => c.title ?? c.id));
    // The sum shown is the day's total, and so is the sum of the tokens each listed chat shows.
    await expect(
      page.getByText(
        `${n(day.chats)} chats: ${n(day.inputTokens)} input and ${n(day.outputTokens)} output tokens (${n(day.totalTokens)} in all) over ${n(day.messages)} messages.`,
      ),
    ).toBeVisible();
    const cells = await chatRows.locator("td:nth-of-type(5)").allInnerTexts();
    expect(cells.reduce((t, c) => t + Number(c.replace(/[^0-9]/g, "")), 0)).toBe(day.totalTokens);
    await expectAccessible(page);
    await page.getByRole("link", { name: "Clear filter" }).click();
    await expect(page).toHaveURL(/\/chats$/);
    await expect(page.getByText(/^Chats active on/)).toHaveCount(0);
    await expect(page.getByRole("checkbox", { name: "Group by working folder" })).toBeVisible();
  });

  test("chats-active and chats-started counts, folder counts, the (no model) row and storage bytes link to their chats", async ({
    page,
    oda,
  }) => {
    test.setTimeout(180_000);
    const state = mkdtempSync(join(tmpdir(), "oda-insights-e2e-"));
    let want: {
      day: { date: string; active: number };
      dayChats: string[];
      noModel: { messages: number; chats: number };
      storage: { chats: number; totalBytes: number };
      all: number;
      started: { date: string; ids: string[] };
      folder: { cwd: string; ids: string[]; all: number };
    };
    try {
      await refreshIndex(state, oda.logs);
      const db = handleOf(state, oda.logs).db;
      const day = activityByDay(db, { tz: "Europe/Paris" }).days.find((d) => d.active > 1);
      if (!day) throw new Error("the demo data has no day with two active chats");
      const none = usageByPeriod(db, "daily", { tz: "Europe/Paris" }).totals.modelBreakdowns.find((m) => !m.modelName);
      if (!none) throw new Error("the demo data has no message without a model");
      const noModel = chatsForFilter(db, { model: "", tz: "Europe/Paris" });
      expect(noModel.totals.messages).toBe(none.messages);
      const totals = storageReport(db).totals;
      expect(storageChatsForFilter(db, { sum: "bytes" }).chats).toHaveLength(totals.chats);
      // The chats that started on a day (in Paris), and those of one folder among them, as Insights counts them.
      const chats = (await listChatsFromIndex(state, oda.logs)).chats;
      const started = activityByDay(db, { tz: "Europe/Paris" }).days.find((d) => d.started > 1);
      if (!started) throw new Error("the demo data has no day with two chats started");
      const on = { from: started.date, to: started.date };
      const startedChats = chats.filter((c) => startedWithin(c.firstActivity, startedQuarters(on, "Europe/Paris")));
      expect(startedChats).toHaveLength(started.started);
      const dated = activityByDay(db, { tz: "Europe/Paris", since: started.date, until: started.date });
      const folder = dated.folders.find((f) => f.cwd !== null);
      if (!folder?.cwd) throw new Error("no chat with a working folder started on that day");
      const inFolder = startedChats.filter((c) => c.cwd === folder.cwd);
      expect(inFolder).toHaveLength(folder.chats);
      want = {
        day,
        dayChats: chatsForFilter(db, { from: day.date, to: day.date, tz: "Europe/Paris" }).chats.map(
          (c) => c.title ?? c.id,
        ),
        noModel: { messages: none.messages, chats: noModel.totals.chats },
        storage: { chats: totals.chats, totalBytes: totals.totalBytes },
        all: chats.length,
        started: { date: started.date, ids: startedChats.map((c) => c.id) },
        folder: {
          cwd: folder.cwd,
          ids: inFolder.map((c) => c.id),
          all: chats.filter((c) => c.cwd === folder.cwd).length,
        },
      };
    } finally {
      closeAllIndexes();
      rmSync(state, { recursive: true, force: true });
    }

    // A day's "Chats active" count opens the list of exactly those chats.
    await page.goto("/insights?tz=Europe%2FParis");
    await expect(page.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 60_000 });
    const activity = page.getByRole("region", { name: "Chats started and active per day" });
    await activity.getByRole("button", { name: "Table view" }).click();
    const row = activity
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: want.day.date, exact: true }) });
    await row
      .locator("td")
      .nth(1)
      .getByRole("link", { name: n(want.day.active), exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/chats\\?from=${want.day.date}&to=${want.day.date}&tz=Europe%2FParis$`));
    const chatRows = page.getByRole("table", { name: "Chats in this filter, most tokens first" }).locator("tbody tr");
    await expect(chatRows).toHaveCount(want.day.active);
    await expect(chatRows.locator("th")).toHaveText(want.dayChats);

    // A day's "Chats started" count opens the chat list itself, narrowed to the chats that started that day.
    const listed = (count: number) =>
      page.getByText(new RegExp(`^Showing ${n(count)} of ${n(want.all)} chats;`)).first();
    const listRows = page.getByRole("table", { name: "Chats" }).getByRole("row");
    await page.goto("/insights?tz=Europe%2FParis");
    await activity.getByRole("button", { name: "Table view" }).click();
    const startedRow = activity
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: want.started.date, exact: true }) });
    await startedRow
      .locator("td")
      .nth(0)
      .getByRole("link", { name: n(want.started.ids.length), exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/chats\\?started=${want.started.date}&tz=Europe%2FParis$`));
    await expect(page.getByText(`Chats started on ${want.started.date} (days in Europe/Paris)`)).toBeVisible();
    await expect(listed(want.started.ids.length)).toBeVisible({ timeout: 30_000 });
    for (const id of want.started.ids) await expect(listRows.filter({ hasText: id })).toHaveCount(1);
    await expect(page.getByLabel("Started from")).toHaveValue(want.started.date);
    await expect(page.getByLabel("Started to")).toHaveValue(want.started.date);
    await expectAccessible(page);

    // A folder's count in "Chats per working folder", on the page narrowed to that day: the folder's chats that
    // started that day; clearing the days leaves every chat of the folder.
    await page.goto(`/insights?tz=Europe%2FParis&since=${want.started.date}&until=${want.started.date}`);
    const perFolder = page.getByRole("region", { name: "Chats per working folder" });
    await perFolder
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: want.folder.cwd, exact: true }) })
      .getByRole("link", { name: n(want.folder.ids.length), exact: true })
      .click();
    await expect(page).toHaveURL(new RegExp(`/chats\\?folder=[^&]+&started=${want.started.date}&tz=Europe%2FParis$`));
    await expect(
      page.getByText(`Chats started on ${want.started.date} in ${want.folder.cwd} (days in Europe/Paris)`),
    ).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Working folder" })).toHaveValue(groupName(want.folder.cwd));
    await expect(listed(want.folder.ids.length)).toBeVisible({ timeout: 30_000 });
    for (const id of want.folder.ids) await expect(listRows.filter({ hasText: id })).toHaveCount(1);
    await page.getByRole("button", { name: "Clear start days" }).click();
    await expect(page).toHaveURL(/\/chats\?folder=[^&]+$/);
    await expect(page.getByText(/^Chats started/)).toHaveCount(0);
    await expect(listed(want.folder.all)).toBeVisible();

    // The "(no model)" row: the chats with messages that name no model, their messages summing to the row's.
    await page.goto("/insights?tz=Europe%2FParis");
    const models = page.getByRole("region", { name: "Tokens per model" });
    await models.getByRole("button", { name: "Table view" }).click();
    const none = models.locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: "(no model)" }) });
    await none.getByRole("link").click();
    await expect(page).toHaveURL(/\/chats\?model=&tz=Europe%2FParis$/);
    await expect(page.getByText("Chats active with messages that name no model (days in Europe/Paris)")).toBeVisible();
    await expect(page.getByText(new RegExp(`over ${n(want.noModel.messages)} messages\\.$`))).toBeVisible();
    await expect(chatRows).toHaveCount(want.noModel.chats);
    const messages = await chatRows.locator("td:nth-of-type(2)").allInnerTexts();
    expect(messages.reduce((t, c) => t + Number(c.replace(/[^0-9]/g, "")), 0)).toBe(want.noModel.messages);

    // Storage: the page's byte total opens every chat with its bytes, which add up to it.
    await page.goto("/insights?tz=Europe%2FParis");
    await page.getByRole("link", { name: "The chats and their bytes" }).click();
    await expect(page).toHaveURL(/\/chats\?sum=bytes$/);
    await expect(page.getByText("Every chat, with its bytes on disk")).toBeVisible();
    await expect(
      page.getByText(`${n(want.storage.chats)} chats take ${n(want.storage.totalBytes)} bytes`),
    ).toBeVisible();
    const byteRows = page.getByRole("table", { name: "Chats in this filter, most bytes first" }).locator("tbody tr");
    await expect(byteRows).toHaveCount(want.storage.chats);
    const bytes = await byteRows.locator("td:nth-of-type(2)").allInnerTexts();
    expect(bytes.reduce((t, c) => t + Number(c.replace(/[^0-9]/g, "")), 0)).toBe(want.storage.totalBytes);
    await expectAccessible(page);
  });

  test("the (no usable log) row links to the chats whose logs cannot be used, not to chat folders with no log", async ({
    page,
    oda,
  }) => {
    test.setTimeout(180_000);
    const state = mkdtempSync(join(tmpdir(), "oda-insights-e2e-"));
    let want: { unusable: number; all: number };
    try {
      await refreshIndex(state, oda.logs);
      const row = storageReport(handleOf(state, oda.logs).db).byFormat.find((g) => g.format === null);
      want = { unusable: row?.logs ?? 0, all: (await listChatsFromIndex(state, oda.logs)).chats.length };
    } finally {
      closeAllIndexes();
      rmSync(state, { recursive: true, force: true });
    }
    expect(want.unusable).toBe(1);

    await page.goto("/insights?tz=Europe%2FParis");
    await expect(page.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 60_000 });
    // A card with no chart shows its table.
    const formats = page.getByRole("region", { name: "Current logs per format" });
    await formats
      .locator("tbody tr")
      .filter({ has: page.getByRole("rowheader", { name: "(no usable log)", exact: true }) })
      .getByRole("link", { name: n(want.unusable), exact: true })
      .click();
    await expect(page).toHaveURL(/\/chats\?format=unusable$/);
    await expect(page.getByRole("combobox", { name: "Format" })).toHaveValue("unusable");
    await expect(
      page.getByText(new RegExp(`^Showing ${n(want.unusable)} of ${n(want.all)} chats;`)).first(),
    ).toBeVisible({ timeout: 30_000 });
    const listRows = page.getByRole("table", { name: "Chats" }).getByRole("row");
    await expect(listRows.filter({ hasText: WRONG_FORM })).toHaveCount(1);
    await expect(listRows.filter({ hasText: NO_LOG })).toHaveCount(0);
    // The list's other value: the chat folder with no log file, alone.
    await page.getByRole("combobox", { name: "Format" }).selectOption({ label: "No log file" });
    await expect(page).toHaveURL(/\/chats\?format=none$/);
    await expect(page.getByText(new RegExp(`^Showing 1 of ${n(want.all)} chats;`)).first()).toBeVisible();
    await expect(listRows.filter({ hasText: NO_LOG })).toHaveCount(1);
    await expectAccessible(page);
  });
});
