import { join } from "node:path";
import { makeDemoInto } from "../scripts/demo";
import { expect, seed, test } from "./fixtures";

/**
 * The README's pictures of the chat list and the inspector, over demo data.
 * Run on purpose only: `UPDATE_SCREENSHOTS=1 npx playwright test e2e/chats-screenshots.spec.ts`.
 */
test.describe("chats screenshots", () => {
  test.skip(
    !process.env.UPDATE_SCREENSHOTS,
    "set UPDATE_SCREENSHOTS=1 to refresh docs/chat-list.png and docs/inspector.png",
  );
  test.use({
    viewport: { width: 1280, height: 900 },
    odaSetup: seed(async ({ home, logs }) => {
      await makeDemoInto({ home, logs, seed: 3, chats: 40 });
    }),
  });

  test("the chat list and the inspector", async ({ page }) => {
    const docs = join(import.meta.dirname, "..", "docs");
    await page.goto("/chats");
    await expect(page.getByText(/^Showing \d+ of \d+ chats/)).toBeVisible();
    await page.screenshot({ path: join(docs, "chat-list.png"), fullPage: false });
    await page.getByLabel("Group by working folder").uncheck();
    await page.getByRole("button", { name: "Messages" }).click();
    await page.getByRole("button", { name: "Messages" }).click();
    await page.getByRole("table", { name: "Chats" }).getByRole("row").getByRole("link").first().click();
    await expect(page.getByRole("heading", { name: "Details" })).toBeVisible();
    await expect(page.getByText(/lines · .* decompressed/)).toBeVisible();
    await page.getByRole("region", { name: /^Lines of / }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(docs, "inspector.png"), fullPage: true });
  });
});
