import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createBundle, REDACT_KINDS } from "../lib/bundle";
import { readOnlySentence } from "../lib/bundle/messages";
import { makeDemoInto } from "../scripts/demo";
import { expect, seed, test } from "./fixtures";

test.use({
  odaSetup: seed(async ({ home, logs, state }) => {
    await makeDemoInto({ home, logs, seed: 4, chats: 6 });
    const scope = {
      chats: "all" as const,
      since: null,
      memory: true,
      kinds: [...REDACT_KINDS],
      keywords: [],
      dropText: false,
    };
    await createBundle({ home, logs }, scope, join(state, "..", "from-ana.tar.gz"), { version: "e2e" });
    await writeFile(join(state, "..", "not-a-bundle.tar.gz"), "not an archive");
  }),
});

test("Open a bundle in a running dashboard: refused when bad, shown read-only, then closed", async ({ page, oda }) => {
  await page.goto("/support");
  const path = page.getByLabel("Bundle file on this computer");
  await path.fill(join(oda.state, "..", "not-a-bundle.tar.gz"));
  await page.getByRole("button", { name: "Open bundle" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "The bundle cannot be read as a .tar.gz archive" }),
  ).toBeVisible();
  await expect(page.getByRole("note", { name: "Support bundle" })).toHaveCount(0);

  await path.fill(join(oda.state, "..", "from-ana.tar.gz"));
  await page.getByRole("button", { name: "Open bundle" }).click();
  const banner = page.getByRole("note", { name: "Support bundle" });
  await expect(banner).toContainText("from-ana.tar.gz", { timeout: 30_000 });
  await page.goto("/memory/settings");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(readOnlySentence("from-ana.tar.gz")).first()).toBeVisible();

  await banner.getByRole("button", { name: "Close the bundle" }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole("note", { name: "Support bundle" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Create a support bundle" })).toBeVisible();
});
