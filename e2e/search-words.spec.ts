import { chatWithTurns } from "./chats-setup";
import { expect, seed, test } from "./fixtures";

/** One chat whose answer celebrates with an emoji and ticks a box. */
async function writeChats(logs: string) {
  await chatWithTurns(logs, { id: "c-party", cwd: "/home/ana/ops", created: "2026-11-20T09:00:00.000Z" }, [
    { user: "Is the release out?", assistant: "Deployed 🎉 and checked ✓", ts: "2026-11-20T09:01:00.000Z" },
  ]);
}

test.use({ odaSetup: seed(async ({ logs }) => writeChats(logs)) });

test.describe("search words", () => {
  test("an emoji is found and marked; a query over 1,000 characters is refused in the app's words", async ({
    page,
  }) => {
    await page.goto("/search");
    await expect(page.getByText("The search index is up to date (1 chat).")).toBeVisible({ timeout: 20_000 });
    const box = page.getByLabel("Search chats");
    await box.fill("🎉");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Is the release out?" })).toBeVisible();
    await expect(results.locator("mark", { hasText: "🎉" })).toBeVisible();

    await box.fill("x".repeat(1001));
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(box).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#search-query-error")).toHaveText(
      "A search can be at most 1,000 characters long; this one has 1,001. Search for a shorter part of the text.",
    );
    await expect(page.getByText(/Too big/)).toHaveCount(0);
  });
});
