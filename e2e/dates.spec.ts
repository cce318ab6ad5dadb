import type { Locator } from "@playwright/test";
import { changeMemory, createMemory } from "../lib/memory";
import { closeAllIndexes, refreshIndex } from "../lib/search-index";
import { settleFolder } from "../test-support/chats/testing";
import { at, closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

const ID = "d1a2b3c4";
const CREATED = "2026-11-29T18:24:08.123Z";

/** One chat (indexed) and one memory with two versions, at known moments. */
test.use({
  timezoneId: "Asia/Tokyo",
  locale: "en-US",
  odaSetup: seed(async ({ home, logs, state }) => {
    await closedChat(logs, "c-okapi", "/home/ana/zoo", 1, { start: 10 });
    settleFolder(logs);
    await refreshIndex(state, logs, { compress: true });
    closeAllIndexes();
    let t = Date.parse(CREATED);
    const now = () => {
      const d = new Date(t);
      t += 60_000;
      return d;
    };
    await createMemory(home, null, { title: "Reply language", text: "Reply in bullet points." }, { id: ID, now });
    await changeMemory(home, null, ID, { text: "Reply in numbered lists." }, { now });
  }),
});

/** The one shape of a moment: the reader's locale (en-US here), seconds, and the zone named (Tokyo: GMT+9). */
const SHAPE = /^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}[\s\u202f][AP]M GMT\+9$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A moment as the reader sees it: the shape with its zone, and the exact ISO time on hover and in `dateTime`. */
async function expectMoment(time: Locator, iso?: string): Promise<void> {
  await expect(time).toHaveText(SHAPE);
  await expect(time).toHaveAttribute("title", iso ?? ISO);
  const title = await time.getAttribute("title");
  await expect(time).toHaveAttribute("datetime", title ?? "");
  await time.hover();
  await expect(time).toHaveAttribute("title", title ?? "");
}

test.describe("one date format", () => {
  test("the chat list and the inspector show a chat's moments in the reader's zone, the ISO time on hover", async ({
    page,
  }) => {
    await page.goto("/chats");
    const row = page.getByRole("table", { name: "Chats" }).getByRole("row").filter({ hasText: "c-okapi" });
    const last = row.locator("time");
    await expectMoment(last);
    const iso = (await last.getAttribute("title")) ?? "";
    expect(Date.parse(iso)).toBeGreaterThanOrEqual(Date.parse(at(10)));
    await expect(last).toHaveText(/^Nov 30, 2026, 3:1\d:\d\d[\s\u202f]AM GMT\+9$/);
    await expectAccessible(page);

    await page.goto("/chats/c-okapi");
    await page.getByText("Details, log generations and downloads").click(); // the details are folded
    await expectMoment(page.locator("dt:text-is('Created:') + dd time"), at(10));
    await expect(page.locator("dt:text-is('Created:') + dd time")).toHaveText(
      /^Nov 30, 2026, 3:10:00[\s\u202f]AM GMT\+9$/,
    );
    await expectMoment(page.locator("dt:text-is('Last activity:') + dd time"), iso);
    await expectAccessible(page);
  });

  test("the index status and a memory's history use the same format", async ({ page }) => {
    await page.goto("/search");
    const panel = page.getByRole("region", { name: "Search index" });
    await expect(panel).toContainText("Last refreshed");
    await expectMoment(panel.locator("time"));
    await expectAccessible(page);

    await page.goto(`/memory/global/${ID}/history`);
    const first = page.locator("time").filter({ hasText: "3:24:08" }).first();
    await expectMoment(first, CREATED);
    await expect(first).toHaveText(/^Nov 30, 2026, 3:24:08[\s\u202f]AM GMT\+9$/);
    await expectMoment(page.locator("time").filter({ hasText: "3:25:08" }).first(), "2026-11-29T18:25:08.123Z");
    await expectAccessible(page);
  });
});
