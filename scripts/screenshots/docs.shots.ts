import { join } from "node:path";
import { expect, seed, test } from "../../e2e/fixtures";
import { listSet, writeSettings } from "../../lib/memory";
import { makeDemoInto } from "../demo";

const docs = join(import.meta.dirname, "..", "..", "docs");
const shot = (name: string) => join(docs, name);

test.use({
  odaDemo: true,
  odaSetup: seed(async ({ home, logs }) => {
    await makeDemoInto({ home, logs, seed: 1, chats: 60 });
    // A tighter token limit than the default, so the budget bars and counters have something to say.
    await writeSettings(home, { chatMaxTokens: 500 });
  }),
});

test("the start page and the memory overview", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("region", { name: "Memory" })).toBeVisible();
  await page.screenshot({ path: shot("home.png") });
  await page.goto("/memory");
  await expect(page.getByText("Reading the memory sets…")).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByRole("table").first()).toBeVisible();
  await page.screenshot({ path: shot("memory-overview.png"), fullPage: true });
});

test("the editor with its counters", async ({ page, oda }) => {
  const units = (await listSet(oda.home, null)).memories.find((m) => m.title === "Units and measures");
  await page.goto(`/memory/global/${units?.id}`);
  await page
    .getByLabel("Text", { exact: true })
    .fill(
      "Use metric units; temperatures in °C; distances in km; weights in kg. Convert imperial figures I paste, and show the original in brackets.",
    );
  await page.getByText(/^Every chat this memory reaches/).click();
  await page.screenshot({ path: shot("editor.png"), fullPage: true });
});

test("a version diff, side by side", async ({ page, oda }) => {
  const layout = (await listSet(oda.home, "reports")).memories.find((m) => m.title === "Quarterly report layout");
  await page.goto(`/memory/workspaces/reports/${layout?.id}/history`);
  const list = page.getByRole("list", { name: "Versions, newest first" });
  // the newest version against the one before it (the oldest has no earlier version to compare with)
  await list
    .getByRole("button", { name: /Show changes/ })
    .first()
    .click();
  const changes = page.getByRole("region", { name: "Changes" });
  await changes.getByRole("button", { name: "Side by side" }).click();
  await expect(changes.getByRole("table")).toBeVisible();
  await changes.screenshot({ path: shot("history-diff.png") });
});

test("the chat list and the inspector", async ({ page }) => {
  await page.goto("/chats");
  await expect(page.getByText(/^Showing \d+ of \d+ chats/)).toBeVisible();
  await page.screenshot({ path: shot("chat-list.png") });
  await page.goto(`/chats/${encodeURIComponent("c-demo-cut-frame")}`);
  await page.getByText("Details, log generations and downloads").click(); // folded by default
  await expect(page.getByText("Messages:", { exact: true }).first()).toBeVisible();
  await expect(page.getByText(/lines · .* decompressed/)).toBeVisible();
  await page.screenshot({ path: shot("inspector.png"), fullPage: true });
});

test("search", async ({ page }) => {
  await page.goto("/search?q=revenue");
  // Let the first build of the index finish, then search again for the whole picture.
  await expect(page.getByText(/^[1-9]\d* chats and \d+ searchable entries indexed/)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("progressbar")).toHaveCount(0, { timeout: 120_000 });
  await page.reload();
  await expect(page.getByRole("list", { name: "Chats that match" })).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: shot("search.png") });
});
