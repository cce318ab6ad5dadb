import { join } from "node:path";
import { expect, seed, test } from "../../e2e/fixtures";
import { makeDemoInto } from "../demo";

const shot = join(import.meta.dirname, "..", "..", "docs", "insights.png");

test.use({
  odaDemo: true,
  timezoneId: "UTC",
  odaSetup: seed(async ({ home, logs }) => void (await makeDemoInto({ home, logs, seed: 1, chats: 60 }))),
});

test("insights", async ({ page }) => {
  await page.goto("/insights?tz=UTC");
  await expect(page.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 120_000 });
  const usage = page.getByRole("region", { name: "Usage" });
  await expect(usage.getByRole("img", { name: /^Tokens per day/ }).locator("canvas")).toBeVisible({ timeout: 30_000 });
  await usage.screenshot({ path: shot });
});
