import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { createMemory, parseMemorySource, writeSettings } from "../lib/memory";
import { expect, expectAccessible, seed, test } from "./fixtures";

/** Issue 11, items 1, 3, 5 and 8: the memory editor loses nothing, writes nothing unasked, says one thing. */

const ID = "c0ffee01";
const EDITOR = `/memory/global/${ID}`;
const title = (page: Page) => page.getByLabel("Title", { exact: true });
const text = (page: Page) => page.getByLabel("Text", { exact: true });
const save = (page: Page) => page.getByRole("button", { name: "Save", exact: true });
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications" });
const onOff = (page: Page) => page.getByRole("switch", { name: "Send this memory to chats" });

/**
 * The browser's own Back or Forward button: a history traversal the browser starts, as its toolbar
 * does (Playwright's goBack waits for a navigation that a held traversal never makes).
 */
async function traverse(page: Page, step: -1 | 1): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const { currentIndex, entries } = await cdp.send("Page.getNavigationHistory");
  const entry = entries[currentIndex + step];
  if (!entry) throw new Error(`no history entry ${step < 0 ? "before" : "after"} this one`);
  await cdp.send("Page.navigateToHistoryEntry", { entryId: entry.id });
  await cdp.detach();
}

/** The editor reached from the set's list, so Back has an entry of this app to go to. */
async function openFromSet(page: Page): Promise<void> {
  await page.goto("/memory/global");
  await page.getByRole("link", { name: "Reply language" }).click();
  await expect(page).toHaveURL(EDITOR);
}

/** An edit left unsaved: the text the leave question is about. */
async function editUnsaved(page: Page): Promise<void> {
  await text(page).fill("two, not saved");
  await expect(page.getByText("Unsaved edits")).toBeVisible();
}

async function onDisk(home: string) {
  const p = parseMemorySource(await readFile(join(home, "memory", "global", ID), "utf8"));
  if (!p.ok) throw new Error(p.message);
  return { title: p.title, text: p.text, enabled: p.fields.enabled };
}

test.describe("an editor with unsaved edits", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await createMemory(home, null, { title: "Reply language", text: "one" }, { id: ID });
    }),
  });

  test("asks before following a link, and keeps a draft the editor offers back until it is saved or discarded", async ({
    page,
    oda,
  }) => {
    test.slow(); // several page loads, a reload and a save on a shared, loaded machine
    await page.goto(EDITOR);
    await expect(text(page)).toHaveValue("one");
    await editUnsaved(page);

    // A link of the app shell: the question comes first, and Cancel stays with the edits.
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chats" }).click();
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await expect(leave).toBeVisible();
    await expectAccessible(page);
    await leave.getByRole("button", { name: "Cancel" }).click();
    await expect(leave).toBeHidden();
    await expect(page).toHaveURL(EDITOR);
    await expect(text(page)).toHaveValue("two, not saved");

    // Leaving after all: the draft stays in this browser and comes back with the editor.
    await page.getByRole("link", { name: "History" }).click();
    await leave.getByRole("button", { name: "Leave this page" }).click();
    await expect(page).toHaveURL(`${EDITOR}/history`);
    expect((await onDisk(oda.home)).text).toBe("one");
    await page.goto(EDITOR);
    const offer = page.getByRole("region", { name: "Unsaved draft" });
    await expect(offer).toContainText("This browser kept an unsaved draft of this memory");
    await expect(text(page)).toHaveValue("one");
    await offer.getByRole("button", { name: "Restore draft" }).click();
    await expect(offer).toHaveCount(0);
    await expect(text(page)).toHaveValue("two, not saved");

    // Closing or reloading the tab asks the browser's own question.
    const asked: string[] = [];
    page.on("dialog", (d) => {
      asked.push(d.type());
      void d.accept();
    });
    await text(page).fill("three, not saved");
    await page.reload();
    expect(asked).toEqual(["beforeunload"]);
    await expect(offer).toContainText("This browser kept an unsaved draft");

    // Discard forgets it; a save clears it too.
    await offer.getByRole("button", { name: "Discard" }).click();
    await expect(text(page)).toHaveValue("one");
    await text(page).fill("four");
    await save(page).click();
    await expect(toasts(page)).toContainText("Memory saved.");
    await expect.poll(async () => (await onDisk(oda.home)).text).toBe("four");
    await page.reload();
    await expect(text(page)).toHaveValue("four");
    await expect(offer).toHaveCount(0);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes("memory-draft")))).toEqual([]);
  });

  test("asks before the browser's Back and Forward, and goes there when told to", async ({ page }) => {
    test.slow(); // client-side navigations and history traversals on a shared, loaded machine
    await openFromSet(page);
    await page.getByRole("link", { name: "History" }).click();
    await expect(page).toHaveURL(`${EDITOR}/history`);
    await traverse(page, -1);
    await expect(page).toHaveURL(EDITOR);
    await editUnsaved(page);

    // Back: the question, and Cancel stays on the editor with the edits.
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await traverse(page, -1);
    await expect(leave).toBeVisible();
    await leave.getByRole("button", { name: "Cancel" }).click();
    await expect(leave).toBeHidden();
    await expect(page).toHaveURL(EDITOR);
    await expect(text(page)).toHaveValue("two, not saved");

    // Forward: the same question, and leaving goes where Forward pointed.
    await traverse(page, 1);
    await expect(leave).toBeVisible();
    await expect(page).toHaveURL(EDITOR);
    await leave.getByRole("button", { name: "Leave this page" }).click();
    await expect(page).toHaveURL(`${EDITOR}/history`);
    await expect(page.getByRole("list", { name: "Versions, newest first" })).toBeVisible();

    // Back again lands on the editor, which offers the draft; with no edits, a second Back goes without asking.
    await traverse(page, -1);
    await expect(page).toHaveURL(EDITOR);
    await expect(page.getByRole("region", { name: "Unsaved draft" })).toBeVisible();
    await traverse(page, -1);
    await expect(page).toHaveURL("/memory/global");
    await expect(leave).toHaveCount(0);
  });

  test("asks before Back in a browser without the Navigation API (popstate only)", async ({ page }) => {
    test.slow(); // client-side navigations and history traversals on a shared, loaded machine
    await page.addInitScript(() => Object.defineProperty(window, "navigation", { value: undefined }));
    await openFromSet(page);
    await editUnsaved(page);

    // The traversal has happened by the time the page hears of it: the editor's entry is put back.
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await traverse(page, -1);
    await expect(leave).toBeVisible();
    await expect(page).toHaveURL(EDITOR);
    await leave.getByRole("button", { name: "Cancel" }).click();
    await expect(text(page)).toHaveValue("two, not saved");

    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Memory" }).click();
    await leave.getByRole("button", { name: "Leave this page" }).click();
    await expect(page).toHaveURL("/memory");
    // Back to the editor, then Back again: held, and leaving goes to where Back pointed.
    await traverse(page, -1);
    await expect(page).toHaveURL(EDITOR);
    await page.getByRole("region", { name: "Unsaved draft" }).getByRole("button", { name: "Restore draft" }).click();
    await expect(text(page)).toHaveValue("two, not saved");
    await traverse(page, -1);
    await expect(leave).toBeVisible();
    await leave.getByRole("button", { name: "Leave this page" }).click();
    await expect(page.getByRole("heading", { name: "Global memories", level: 1 })).toBeVisible();
  });

  test("on/off is part of the draft: nothing is written before Save, whose toast's Undo turns it back", async ({
    page,
    oda,
  }) => {
    await page.goto(EDITOR);
    await expect(onOff(page)).toHaveAttribute("aria-checked", "true");
    await onOff(page).click();
    await expect(onOff(page)).toHaveAttribute("aria-checked", "false");
    await expect(page.getByText("Unsaved edits")).toBeVisible();
    expect((await onDisk(oda.home)).enabled).toBe(true);

    await text(page).fill("one, and off");
    await save(page).click();
    await expect(toasts(page)).toContainText("Memory saved.");
    await expect
      .poll(() => onDisk(oda.home))
      .toEqual({ title: "Reply language", text: "one, and off", enabled: false });

    // The toast's Undo is this save's: text and on/off come back together.
    await toasts(page).getByRole("button", { name: "Undo" }).first().click();
    await expect(toasts(page)).toContainText("The previous text is back.");
    await expect.poll(() => onDisk(oda.home)).toEqual({ title: "Reply language", text: "one", enabled: true });
    await expect(onOff(page)).toHaveAttribute("aria-checked", "true");
  });
});

test.describe("the editor's token counter and the server's refusal", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await writeSettings(home, { chatMaxTokens: 500, textMaxChars: 5000 });
      await createMemory(home, null, { title: "G", text: "g" }, { id: ID });
      await createMemory(home, "reports", { title: "W", text: "w".repeat(500) });
      await createMemory(home, "small", { title: "S", text: "s" });
    }),
  });

  test("name the same chat with the same number", async ({ page }) => {
    await page.goto(EDITOR);
    // Over the limit in every chat: a chat in no workspace would already get too much, but the fullest is named.
    await text(page).fill("g".repeat(2100));
    const tokens = page.locator("#tokens-counter");
    // "## G\n" + 2100 = 2105 code points alone (527 tokens); workspace reports adds "\n\n## W\n" + 500 = 507.
    await expect(tokens).toContainText("Tokens a chat in workspace reports receives: 653 / 500 tokens");
    await save(page).click();
    await expect(page.getByRole("alert").filter({ hasText: "This change would take" })).toHaveText(
      "This change would take the memory a chat in workspace reports receives to 653 tokens; the limit is 500.",
    );
  });
});

test.describe("a field's refusal", () => {
  test("clears as soon as the value passes the server's check, and comes back when it fails again", async ({
    page,
  }) => {
    await page.goto("/memory/global/new");
    await save(page).click();
    const titleError = page.locator("#title-error");
    await expect(titleError).toHaveText("A memory needs a title.");
    await expect(title(page)).toHaveAttribute("aria-invalid", "true");

    await title(page).fill("Reply language");
    await expect(titleError).toBeEmpty();
    await expect(title(page)).not.toHaveAttribute("aria-invalid", "true");

    await save(page).click();
    const textError = page.locator("#text-error");
    await expect(textError).toHaveText("A memory needs some text.");
    await text(page).fill("Reply in short bullet points.");
    await expect(textError).toBeEmpty();
    await text(page).fill("   ");
    await expect(textError).toHaveText("A memory needs some text.");
    await expectAccessible(page);
  });
});
