import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { changeMemory, createMemory, listVersions, parseMemorySource, setEnabled } from "../lib/memory";
import { expect, expectAccessible, seed, test } from "./fixtures";
import { versionLabel } from "./version-label";

/** Issue 11, items 4 (an id that never existed), 6, 7 and 16: the History page. */

const ID = "b0b0cafe";
const HISTORY = `/memory/global/${ID}/history`;

/** One minute per change, so every version has its own moment. */
function clock(): () => Date {
  let t = Date.parse("2026-11-29T18:24:08.123Z");
  return () => {
    t += 60_000;
    return new Date(t);
  };
}

/** created "v1" → text "v2" → text "v3" → turned off (current). Versions, newest first: off-less v3, v2, v1. */
async function buildHistory(home: string): Promise<void> {
  const now = clock();
  await createMemory(home, null, { title: "Tone", text: "v1" }, { id: ID, now });
  await changeMemory(home, null, ID, { text: "v2" }, { now });
  await changeMemory(home, null, ID, { text: "v3" }, { now });
  await setEnabled(home, null, ID, false, { now });
}

const textOnDisk = async (home: string) => {
  const p = parseMemorySource(await readFile(join(home, "memory", "global", ID), "utf8"));
  if (!p.ok) throw new Error(p.message);
  return p.text;
};
const changes = (page: Page) => page.getByRole("region", { name: "Changes" });
const compareWith = (page: Page) => page.getByLabel(/^Compare (this version|the current text) with$/);

test.describe("a memory's history", () => {
  test.use({ odaSetup: seed(async ({ home }) => buildHistory(home)) });

  test("the oldest version against the one before it says there is none; on/off reads as a field", async ({
    page,
    oda,
  }) => {
    const versions = await listVersions(oda.home, null, ID);
    const oldest = versions.at(-1)!;
    await page.goto(`${HISTORY}?version=${oldest.name}`);
    await compareWith(page).selectOption("previous");
    await expect(changes(page)).toContainText("There is no earlier version");
    await expect(changes(page)).not.toContainText("the file had a problem");
    await expect(changes(page).getByRole("term")).toHaveCount(0);

    // The current state (turned off) against the version before it.
    await page.goto(HISTORY);
    await expect(changes(page).getByRole("term")).toHaveText(["On/off:"]);
    await expect(changes(page).getByRole("definition").locator("ins")).toHaveText(["off"]);
    await expectAccessible(page);
  });

  test("compares any two versions, from the URL too", async ({ page, oda }) => {
    test.slow(); // three page loads and a reload on a shared, loaded machine
    const [v3, v2, v1] = await listVersions(oda.home, null, ID);
    await page.goto(`${HISTORY}?version=${v3!.name}`);
    await compareWith(page).selectOption(v1!.name);
    await expect(page).toHaveURL(new RegExp(`version=${v3!.name}&compare=${v1!.name}$`));
    await expect(changes(page)).toContainText(
      `From ${await versionLabel(page, v1!)} to ${await versionLabel(page, v3!)}.`,
    );
    await expect(changes(page).locator('tr[data-line="removed"]')).toHaveText([/v1/]);
    await expect(changes(page).locator('tr[data-line="added"]')).toHaveText([/v3/]);

    // The older one is always on the left, whichever was picked first.
    await page.goto(`${HISTORY}?version=${v1!.name}&compare=${v2!.name}`);
    await expect(compareWith(page)).toHaveValue(v2!.name);
    await expect(changes(page)).toContainText(
      `From ${await versionLabel(page, v1!)} to ${await versionLabel(page, v2!)}.`,
    );
    await page.reload();
    await expect(changes(page)).toContainText(
      `From ${await versionLabel(page, v1!)} to ${await versionLabel(page, v2!)}.`,
    );
    await expectAccessible(page);
  });

  test("a restore offers the same Undo as the editor's toasts", async ({ page, oda }) => {
    const versions = await listVersions(oda.home, null, ID);
    const v1 = versions.at(-1)!;
    await page.goto(HISTORY);
    await page.getByRole("button", { name: `Restore version ${v1.name}` }).click();
    await page.getByRole("dialog", { name: "Restore this version?" }).getByRole("button", { name: "Restore" }).click();
    const toasts = page.getByRole("region", { name: "Notifications" });
    await expect(toasts).toContainText(`Restored version ${v1.name}`);
    await expect.poll(() => textOnDisk(oda.home)).toBe("v1");

    await toasts.getByRole("button", { name: "Undo" }).click();
    await expect(toasts).toContainText("The previous text is back.");
    await expect.poll(() => textOnDisk(oda.home)).toBe("v3");
    // And that Undo can be undone in turn.
    await toasts.getByRole("button", { name: "Undo" }).click();
    await expect.poll(() => textOnDisk(oda.home)).toBe("v1");
  });
});

test.describe("a memory id that never existed", () => {
  test("its history says no memory with that id exists, and offers no restore", async ({ page }) => {
    await page.goto("/memory/global/0badc0de/history");
    await expect(page.getByRole("alert").filter({ hasText: "No memory with the id" })).toContainText(
      'No memory with the id "0badc0de" exists in the global set.',
    );
    await expect(page.getByText("Restore a version to bring it back")).toHaveCount(0);
    await expectAccessible(page);
  });
});
