import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page, Response } from "@playwright/test";
import { createMemory, parseMemorySource, restoreDeleted, serialiseMemoryFile, writeSettings } from "../lib/memory";
import { expect, expectAccessible, seed, test } from "./fixtures";

const globalFile = (home: string, id: string) => join(home, "memory", "global", id);
const onlyId = async (home: string) =>
  (await readdir(join(home, "memory", "global")).catch(() => [] as string[])).filter((n) => /^[0-9a-f]{8}$/.test(n));

/** Reads a memory file as the lib parses it. */
async function readParsed(path: string) {
  const p = parseMemorySource(await readFile(path, "utf8"));
  if (!p.ok) throw new Error(p.message);
  return p;
}

/** Writes a memory file as a person editing outside the app would: same fields, a new text. */
async function editOutside(path: string, text: string) {
  const p = await readParsed(path);
  await writeFile(path, serialiseMemoryFile(p.fields, text));
}

const counter = (page: Page, id: string) => page.locator(`#${id}`);
const title = (page: Page) => page.getByLabel("Title", { exact: true });
const text = (page: Page) => page.getByLabel("Text", { exact: true });
const save = (page: Page) => page.getByRole("button", { name: "Save", exact: true });
const toasts = (page: Page) => page.getByRole("region", { name: "Notifications" });

test.describe("creating a memory and the refusals of title and text", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await writeSettings(home, { titleMaxChars: 20, textMaxChars: 100 });
    }),
  });

  test("counters warn near each limit and turn to errors past it; the server's sentences sit under their field", async ({
    page,
    oda,
  }) => {
    await page.goto("/memory/global/new");
    await expect(page.getByRole("heading", { level: 1, name: "New memory" })).toBeVisible();
    await expect(counter(page, "title-counter")).toHaveText("Title: 0 / 20 characters");

    await save(page).click();
    await expect(page.locator("#title-error")).toHaveText("A memory needs a title.");
    await expect(title(page)).toHaveAttribute("aria-describedby", /title-error/);

    await title(page).fill("Reply language");
    await save(page).click();
    await expect(page.locator("#text-error")).toHaveText("A memory needs some text.");
    await expect(page.locator("#title-error")).toBeEmpty();

    // title: 18 of 20 is a warning, 21 is an error, and the save is refused with the contract's sentence
    await title(page).fill("t".repeat(18));
    await text(page).fill("Reply in short bullet points.");
    await expect(counter(page, "title-counter")).toHaveAttribute("data-level", "warning");
    await expect(counter(page, "title-counter")).toContainText("18 / 20 characters — near the limit");
    await title(page).fill("t".repeat(21));
    await expect(counter(page, "title-counter")).toHaveAttribute("data-level", "error");
    await expect(counter(page, "title-counter")).toContainText("21 / 20 characters — over the limit by 1");
    await save(page).click();
    await expect(page.locator("#title-error")).toHaveText(
      "A memory title is limited to 20 characters; this one has 21.",
    );

    // text: 95 of 100 warns, 101 is refused
    await title(page).fill("Reply language");
    await text(page).fill("x".repeat(95));
    await expect(counter(page, "text-counter")).toHaveAttribute("data-level", "warning");
    await text(page).fill("x".repeat(101));
    await expect(counter(page, "text-counter")).toHaveAttribute("data-level", "error");
    await expect(counter(page, "text-counter")).toContainText("101 / 100 characters — over the limit by 1");
    await save(page).click();
    await expect(page.locator("#text-error")).toHaveText(
      "A memory is limited to 100 characters; this one has 101. Shorten it or split it into several memories.",
    );
    expect(await onlyId(oda.home)).toEqual([]);
    await expectAccessible(page);

    await text(page).fill("Reply in short bullet points.");
    await save(page).click();
    await expect(toasts(page)).toContainText("Memory saved.");
    await expect(page).toHaveURL(/\/memory\/global\/[0-9a-f]{8}$/);
    const [id] = await onlyId(oda.home);
    expect(page.url()).toContain(id);
    const saved = await readParsed(globalFile(oda.home, id as string));
    expect([saved.title, saved.text, saved.fields.enabled, saved.fields.source]).toEqual([
      "Reply language",
      "Reply in short bullet points.",
      true,
      "user",
    ]);
    await expect(page.getByRole("heading", { level: 1, name: "Edit memory" })).toBeVisible();
    await expect(page.getByRole("link", { name: "History" })).toHaveAttribute("href", `/memory/global/${id}/history`);
    await expectAccessible(page);
  });
});

test.describe("file bytes and the tokens a chat receives", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await writeSettings(home, { textMaxChars: 1000, fileMaxBytes: 1024, chatMaxTokens: 500 });
      await createMemory(home, null, { title: "G1", text: "a".repeat(900) });
      await createMemory(home, null, { title: "G2", text: "b".repeat(900) });
      await createMemory(home, "ws-a", { title: "W", text: "w".repeat(10) });
    }),
  });

  test("the byte counter and the tightest chat's token estimate cross their limits; the token refusal is shown", async ({
    page,
  }) => {
    await page.goto("/memory/global/new");
    await title(page).fill("T");
    // Payload so far: "## G1\n"+900 + "\n\n" + "## G2\n"+900 = 1814 code points; ws-a adds "\n\n## W\n" + 10.
    await text(page).fill("x".repeat(100));
    const tokens = counter(page, "tokens-counter");
    await expect(tokens).toContainText("Tokens a chat in workspace ws-a receives: 485 / 500 tokens — near the limit");
    await expect(tokens).toHaveAttribute("data-level", "warning");
    await page.getByText("Every chat this memory reaches (2)").click();
    await expect(page.getByText("A chat in no workspace: 481 / 500 tokens — near the limit")).toBeVisible();

    await text(page).fill("x".repeat(200));
    await expect(tokens).toHaveAttribute("data-level", "error");
    await expect(tokens).toContainText("510 / 500 tokens — over the limit by 10");
    await save(page).click();
    // The refusal names the chat the counter shows, with its number (issue 11, item 5).
    await expect(page.getByRole("alert").filter({ hasText: "This change would take" })).toHaveText(
      "This change would take the memory a chat in workspace ws-a receives to 510 tokens; the limit is 500.",
    );

    // "€" is three bytes: 280 of them fill 90 % of 1024 bytes with the frontmatter, 310 go past it.
    await text(page).fill("€".repeat(280));
    await expect(counter(page, "bytes-counter")).toHaveAttribute("data-level", "warning");
    await expect(counter(page, "text-counter")).toHaveAttribute("data-level", "ok");
    await text(page).fill("€".repeat(310));
    await expect(counter(page, "bytes-counter")).toHaveAttribute("data-level", "error");
    await expect(counter(page, "bytes-counter")).toContainText("over the limit");
    await expect(save(page)).toBeDisabled();
    await expect(page.getByRole("alert").filter({ hasText: "larger than" })).toHaveText(
      "The memory could not be changed: The file is larger than 1,024 bytes.", // grouped as the counters are
    );
  });
});

test.describe("an open editor", () => {
  let id = "";
  test.use({
    odaSetup: seed(async ({ home }) => {
      id = (await createMemory(home, null, { title: "Reply language", text: "one" })).memory?.id as string;
    }),
  });

  test("an outside edit with unsaved edits: the notice, the concurrency refusal, then both choices", async ({
    page,
    oda,
  }) => {
    const file = globalFile(oda.home, id);
    await page.goto(`/memory/global/${id}`);
    await expect(text(page)).toHaveValue("one");
    await text(page).fill("mine");
    await editOutside(file, "theirs");
    const notice = page.getByRole("alert").filter({ hasText: "This memory was changed outside the editor" });
    await expect(notice).toBeVisible({ timeout: 8_000 });
    await expect(notice).toContainText("theirs");
    await expect(notice.locator("pre del")).toContainText("theirs");
    await expect(notice.locator("pre ins")).toContainText("mine");
    await expectAccessible(page);

    // Saving over it with the sha the editor loaded is refused; nothing is overwritten.
    await save(page).click();
    await expect(
      page.getByText("The memory could not be changed: its file changed after you opened it. Reload it and try again."),
    ).toBeVisible();
    expect((await readParsed(file)).text).toBe("theirs");

    await notice.getByRole("button", { name: "Keep my edits" }).click();
    await expect(notice).toHaveCount(0);
    await expect.poll(async () => (await readParsed(file)).text).toBe("mine");
    const versions = await readdir(join(oda.home, "memory-history", "global", id));
    expect(versions.some((n) => n.endsWith("-external"))).toBe(true);

    // Again, and this time the outside version wins.
    await text(page).fill("mine again");
    await editOutside(file, "theirs again");
    await expect(notice).toBeVisible({ timeout: 8_000 });
    await notice.getByRole("button", { name: "Use the outside version" }).click();
    await expect(notice).toHaveCount(0);
    await expect(text(page)).toHaveValue("theirs again");
    expect((await readParsed(file)).text).toBe("theirs again");

    // With no unsaved edits the new text just loads, and the editor says so.
    await editOutside(file, "quietly changed");
    await expect(text(page)).toHaveValue("quietly changed", { timeout: 8_000 });
    await expect(page.getByText("This memory was changed outside the editor; its new text is loaded.")).toBeVisible();
  });

  test("a save that changes nothing says so; Ctrl+S saves; Undo restores and can itself be undone", async ({
    page,
    oda,
  }) => {
    const file = globalFile(oda.home, id);
    await page.goto(`/memory/global/${id}`);
    await expect(text(page)).toHaveValue("one");
    await save(page).click();
    await expect(page.getByText("The memory already had that title and text; nothing was saved.")).toBeVisible();

    await text(page).fill("two");
    await text(page).press("Control+s");
    await expect(toasts(page)).toContainText("Memory saved.");
    await expect.poll(async () => (await readParsed(file)).text).toBe("two");

    await toasts(page).getByRole("button", { name: "Undo" }).click();
    await expect(toasts(page)).toContainText("The previous text is back.");
    await expect.poll(async () => (await readParsed(file)).text).toBe("one");
    await expect(text(page)).toHaveValue("one");

    await toasts(page).getByRole("button", { name: "Undo" }).click();
    await expect.poll(async () => (await readParsed(file)).text).toBe("two");
    await expect(text(page)).toHaveValue("two");
    // No outside-change notice for our own writes: let the editor re-read the disk (its polling GET
    // read) twice after the last write before looking.
    for (let read = 0; read < 2; read++) await page.waitForResponse(isDiskReread);
    await expect(page.getByText("This memory was changed outside the editor")).toHaveCount(0);
  });

  test("delete asks first, then removes the file and returns to the set", async ({ page, oda }) => {
    const file = globalFile(oda.home, id);
    await page.goto(`/memory/global/${id}`);
    await page.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this memory?" });
    await expect(dialog).toBeVisible();
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await stat(file); // still there

    await page.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete memory" }).click();
    await expect(page).toHaveURL(/\/memory\/global$/);
    await expect(toasts(page)).toContainText("Memory deleted");
    await expect
      .poll(() =>
        stat(file).then(
          () => "there",
          () => "gone",
        ),
      )
      .toBe("gone");

    // Undo brings the memory back in its editor, which knows that file as its own: no outside-change note.
    // The editor's last re-read is made to fail, so the memory as it was before the delete stays in the cache
    // (as it does when the re-read is cut short by leaving the page).
    await toasts(page).getByRole("button", { name: "Dismiss notification" }).click();
    await restoreDeleted(oda.home, null, id);
    await page.goto(`/memory/global/${id}`);
    await expect(text(page)).toHaveValue("one");
    await page.route("**/api/read/memory.one?*", (route) => route.abort());
    await page.getByRole("button", { name: "Delete" }).click();
    await dialog.getByRole("button", { name: "Delete memory" }).click();
    await expect(page).toHaveURL(/\/memory\/global$/);
    await page.unroute("**/api/read/memory.one?*");
    await toasts(page).getByRole("button", { name: "Undo" }).click();
    await expect(page).toHaveURL(`/memory/global/${id}`);
    await expect(text(page)).toHaveValue("one");
    await expect.poll(async () => (await readParsed(file)).text).toBe("one");
    for (let read = 0; read < 2; read++) await page.waitForResponse(isDiskReread);
    await expect(page.getByText("This memory was changed outside the editor")).toHaveCount(0);
  });

  test("the editor in a 390 px window", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/memory/global/${id}`);
    await expect(text(page)).toHaveValue("one");
    await expect(save(page)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page);

    // One number format on the page: the counter and the refusal both say "2,000" (the CLI keeps "2000").
    await text(page).fill("x".repeat(2001));
    await expect(counter(page, "text-counter")).toContainText("2,001 / 2,000 characters");
    await save(page).click();
    await expect(page.locator("#text-error")).toHaveText(
      "A memory is limited to 2,000 characters; this one has 2,001. Shorten it or split it into several memories.",
    );
    await text(page).fill("one");

    await page.goto("/memory/global");
    await expect(page.getByRole("switch", { name: "Send “Reply language” to chats" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  });
});

test.describe("a set", () => {
  let id = "";
  test.use({
    odaSetup: seed(async ({ home }) => {
      id = (await createMemory(home, "ws-a", { title: "Reply language", text: "Short bullets." })).memory?.id as string;
      await createMemory(
        home,
        "ws-a",
        { title: "From a chat", text: "Uses tabs." },
        { source: "chat", sessionId: "c-1" },
      );
      // a hand-written broken file and a stray name: the test is about them
      await writeFile(join(home, "memory", "workspaces", "ws-a", "0000000b"), "no frontmatter here\n");
      await writeFile(join(home, "memory", "workspaces", "ws-a", "notes.txt"), "not a memory\n");
    }),
  });

  test("lists memories with switches that rewrite the enabled line, problem files and ignored files", async ({
    page,
    oda,
  }) => {
    const file = join(oda.home, "memory", "workspaces", "ws-a", id);
    await page.goto("/memory/workspaces/ws-a");
    await expect(page.getByRole("heading", { level: 1, name: "Workspace ws-a" })).toBeVisible();
    const rows = page.getByRole("table").getByRole("row");
    await expect(rows.filter({ hasText: "From a chat" })).toContainText("saved by the agent");
    await expect(rows.filter({ hasText: "Reply language" })).toContainText("saved by you");
    await expect(page.getByRole("region", { name: "Files with a problem" })).toContainText(
      "memory/workspaces/ws-a/0000000b: The file does not start with a --- frontmatter block.",
    );
    await expect(page.getByRole("region", { name: "Files with a problem" }).getByRole("link")).toHaveAttribute(
      "href",
      "/memory/problems",
    );
    await expect(page.getByRole("region", { name: "Ignored files" })).toContainText("notes.txt");
    await expect(page.getByRole("link", { name: "New memory" })).toHaveAttribute("href", "/memory/workspaces/ws-a/new");
    await expectAccessible(page);

    const before = await readParsed(file);
    const toggle = page.getByRole("switch", { name: "Send “Reply language” to chats" });
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "false");
    await expect.poll(async () => (await readParsed(file)).fields.enabled).toBe(false);
    const off = await readFile(file, "utf8");
    const updated = (await readParsed(file)).fields.updated;
    expect(off).toBe(serialiseMemoryFile({ ...before.fields, enabled: false, updated }, before.text));
    expect(off).toContain("\nenabled: false\n");

    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-checked", "true");
    await expect.poll(async () => (await readFile(file, "utf8")).includes("\nenabled: true\n")).toBe(true);
  });

  test("an invalid workspace key or memory id is not found", async ({ page }) => {
    for (const path of ["/memory/workspaces/-bad", "/memory/workspaces/ws-a/zzzzzzzz", "/memory/global/00000001"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
    }
    // A memory that is not there is named with its set, in the sentence the CLI says, not a generic one.
    await page.goto("/memory/global/00000001");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      'No memory with the id "00000001" exists in the global set.',
    );
    await expect(page.getByRole("link", { name: "Back to the set" })).toHaveAttribute("href", "/memory/global");
    await expectAccessible(page);
    await page.goto("/memory/workspaces/ws-a/zzzzzzzz");
    await expect(page.getByRole("main").getByRole("alert")).toHaveText(
      'No memory with the id "zzzzzzzz" exists in workspace ws-a.',
    );
  });
});

/** The answer to one of the editor's disk re-reads (a GET of its memory). */
function isDiskReread(response: Response): boolean {
  return response.request().method() === "GET" && response.url().includes("/api/read/memory.one?");
}

test("every page serves the writes a toast's Undo runs, since a toast outlives its page", async () => {
  // Next serves an action only on the pages whose client code refers to it; the layout's UndoActionsProvider
  // refers to these. Without it a delete's Undo, clicked on the set page it returned to, is "unavailable".
  const manifest = JSON.parse(await readFile(join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  const entries = Object.values(manifest.node);
  const pages = new Set(entries.flatMap((e) => Object.keys(e.workers)).filter((w) => w.includes("(dashboard)")));
  for (const name of ["deleteMemoryAction", "restoreDeletedAction", "restoreVersionAction", "undoBulkAction"]) {
    const served = new Set(Object.keys(entries.find((e) => e.exportedName === name)?.workers ?? {}));
    expect(
      [...pages].filter((p) => !served.has(p)),
      name,
    ).toEqual([]);
  }
});
