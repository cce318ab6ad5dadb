import { join } from "node:path";
import { expect, seed, test } from "../../e2e/fixtures";
import { makeDemoInto } from "../demo";

const shot = (name: string) => join(import.meta.dirname, "..", "..", "docs", name);

test.use({
  odaDemo: true,
  odaSetup: seed(async ({ home, logs }) => void (await makeDemoInto({ home, logs, seed: 1, chats: 60 }))),
});

test("the support bundle page with its preview", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/support");
  await page.getByLabel("Keywords to replace too (comma-separated)").fill("Northwind");
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "What goes in" })).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: shot("support-bundle.png"), fullPage: true });
});
