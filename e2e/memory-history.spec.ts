import { readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import {
  changeMemory,
  createMemory,
  deleteMemory,
  listVersions,
  parseMemorySource,
  serialiseMemoryFile,
  setEnabled,
} from "../lib/memory";
import { closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";
import { versionLabel } from "./version-label";

const ID = "a1b2c3d4";
const HISTORY = `/memory/global/${ID}/history`;

/** A clock one minute per change, so every version has its own moment. */
function clock(start = "2026-11-29T18:24:08.123Z"): () => Date {
  let t = Date.parse(start);
  return () => {
    const d = new Date(t);
    t += 60_000;
    return d;
  };
}

/** created in Settings → changed by a chat → renamed → turned off → changed by a chat (current). */
async function buildHistory(home: string): Promise<void> {
  const now = clock();
  const chat = { source: "chat" as const, sessionId: "7f3c9a10-2d4e-4c1b-9a55-0c2a4f6e8b21", now };
  await createMemory(
    home,
    null,
    { title: "Reply language", text: "Reply in short bullet points.\nUse British spelling." },
    { id: ID, now },
  );
  await changeMemory(
    home,
    null,
    ID,
    { text: "Reply in long bullet points.\nUse British spelling.\nEnd with a summary." },
    chat,
  );
  await changeMemory(home, null, ID, { title: "Answer language" }, { now });
  await setEnabled(home, null, ID, false, { now });
  await changeMemory(
    home,
    null,
    ID,
    { text: "Reply in long numbered lists.\nUse British spelling.\nEnd with a summary." },
    chat,
  );
}

const file = (home: string) => join(home, "memory", "global", ID);
const stateOf = async (home: string) =>
  JSON.parse(await readFile(join(home, "memory-history", "global", ID, "state.json"), "utf8")) as {
    source: string;
    savedAt: string;
  };

test.describe("a memory's history", () => {
  test.use({ odaSetup: seed(async ({ home }) => buildHistory(home)) });

  test("shows every state newest first and diffs a version inline and side by side", async ({ page, oda }) => {
    const versions = await listVersions(oda.home, null, ID);
    expect(versions.map((v) => v.source)).toEqual(["settings", "settings", "chat", "settings"]);
    const chatVersion = versions[2]!;
    await page.goto(HISTORY);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("History of “Answer language”");
    const list = page.getByRole("list", { name: "Versions, newest first" });
    const current = list.getByRole("listitem", { name: "Current state" });
    await expect(current).toContainText("from a chat");
    await expect(list.getByRole("listitem")).toHaveCount(5);
    const row = list.getByRole("listitem", { name: `Version ${chatVersion.name}` });
    await expect(row).toContainText("from a chat");
    await expect(row).toContainText(chatVersion.name);
    await expect(row.locator("time")).toHaveAttribute("datetime", chatVersion.moment);

    // The chat's change against the version before it: one word changed, one line added.
    await row.getByRole("button", { name: /Show changes/ }).click();
    await expect(page).toHaveURL(new RegExp(`version=${chatVersion.name}(&compare=previous)?$`)); // the pair is in the URL
    await page.getByLabel("Compare this version with").selectOption("previous");
    const changes = page.getByRole("region", { name: "Changes" });
    await expect(changes).toContainText(
      `From ${await versionLabel(page, versions[3]!)} to ${await versionLabel(page, chatVersion)}.`,
    );
    await expect(changes.getByText(/^From /)).not.toContainText(chatVersion.name); // no version file name
    await expect(row.getByRole("button", { name: /Changes shown/ })).toHaveAttribute("aria-pressed", "true");
    await expect(changes.locator("del[data-word]")).toHaveText(["removed words: short"]);
    await expect(changes.locator("ins[data-word]")).toHaveText(["added words: long"]);
    await expect(changes.locator('tr[data-line="added"]')).toHaveCount(2);
    await expect(changes.locator('tr[data-line="removed"]')).toHaveCount(1);
    await expect(changes).toContainText("1 line removed (−), 2 lines added (+).");
    await expect(changes.getByRole("term")).toHaveCount(0);

    // Against the current text: the title and turning off show as fields.
    await page.getByLabel("Compare this version with").selectOption("current");
    const fields = changes.getByRole("definition");
    await expect(changes.getByRole("term")).toHaveText(["Title:", "On/off:"]);
    await expect(fields.locator("del")).toHaveText(["was Reply language", "was on"]);
    await expect(fields.locator("ins")).toHaveText(["Answer language", "off"]);
    await expect(changes.locator("del[data-word]")).toHaveText(["removed words: bullet points"]);
    await expect(changes.locator("ins[data-word]")).toHaveText(["added words: numbered lists"]);

    await changes.getByRole("button", { name: "Side by side" }).click();
    await expect(changes.getByRole("button", { name: "Side by side" })).toHaveAttribute("aria-pressed", "true");
    const table = changes.getByRole("table", { name: /side by side/ });
    await expect(table.getByRole("columnheader")).toHaveText([
      await versionLabel(page, chatVersion),
      "the current text",
    ]);
    const first = table.locator("tr[data-side-row]").first();
    await expect(first.locator("del[data-word]")).toHaveText("removed words: bullet points");
    await expect(first.locator("ins[data-word]")).toHaveText("added words: numbered lists");
    await expectAccessible(page);
  });

  test("restores a version, and that restore can itself be restored away", async ({ page, oda }) => {
    const versions = await listVersions(oda.home, null, ID);
    const oldest = versions[3]!;
    const before = await readFile(file(oda.home), "utf8");
    await page.goto(HISTORY);
    await page.getByRole("button", { name: `Restore version ${oldest.name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Restore this version?" });
    await expect(dialog).toContainText(oldest.name);
    await dialog.getByRole("button", { name: "Restore" }).click();
    await expect(page.getByRole("status").filter({ hasText: `Restored version ${oldest.name}` })).toBeVisible();

    // The file holds the version's content (title, text, on) with `updated` set to the restore's moment.
    const state = await stateOf(oda.home);
    expect(state.source).toBe("restore");
    const parsed = parseMemorySource(oldest.raw!);
    if (!parsed.ok) throw new Error("the oldest version should read");
    expect(await readFile(file(oda.home), "utf8")).toBe(
      serialiseMemoryFile({ ...parsed.fields, updated: state.savedAt }, parsed.text),
    );
    // The replaced state (from a chat) is kept as a version.
    const after = await listVersions(oda.home, null, ID);
    expect(after[0]?.source).toBe("chat");
    expect(after[0]?.raw).toBe(before);
    const current = page.getByRole("listitem", { name: "Current state" });
    await expect(current).toContainText("restored");
    await expect(current).toContainText("Reply language");

    // Restoring the chat's text back keeps the restored state as a `-restore` version.
    await page.getByRole("button", { name: `Restore version ${after[0]!.name}` }).click();
    await page.getByRole("dialog", { name: "Restore this version?" }).getByRole("button", { name: "Restore" }).click();
    await expect(page.getByRole("listitem", { name: /^Version .*-restore$/ })).toHaveCount(1);
    const again = await listVersions(oda.home, null, ID);
    expect(again[0]?.name).toMatch(/^\d{8}T\d{9}Z-restore$/);
    const back = parseMemorySource(await readFile(file(oda.home), "utf8"));
    expect(back.ok && [back.title, back.text, back.fields.enabled]).toEqual([
      "Answer language",
      "Reply in long numbered lists.\nUse British spelling.\nEnd with a summary.",
      false,
    ]);
  });

  test("undoes the chat change that made the current text", async ({ page, oda }) => {
    const versions = await listVersions(oda.home, null, ID);
    const replaced = versions[0]!; // the state the chat replaced: renamed and off
    await page.goto(HISTORY);
    const current = page.getByRole("listitem", { name: "Current state" });
    await current.getByRole("button", { name: "Undo this chat change" }).click();
    await page
      .getByRole("dialog", { name: "Undo the chat's change?" })
      .getByRole("button", { name: "Undo the change" })
      .click();
    await expect(
      page.getByRole("status").filter({ hasText: "Undone: the text the chat replaced is back." }),
    ).toBeVisible();
    await expect(current).toContainText("undone");
    await expect(current.getByRole("button", { name: "Undo this chat change" })).toHaveCount(0);
    const now = parseMemorySource(await readFile(file(oda.home), "utf8"));
    const was = parseMemorySource(replaced.raw!);
    expect(now.ok && was.ok).toBe(true);
    if (now.ok && was.ok)
      expect([now.title, now.text, now.fields.enabled]).toEqual([was.title, was.text, was.fields.enabled]);
    expect((await stateOf(oda.home)).source).toBe("undo");
  });

  test("says a missing version does not exist, from the URL or once removed on disk", async ({ page, oda }) => {
    await page.goto(`${HISTORY}?version=20200101T000000000Z-chat`);
    await expect(page.getByRole("alert").filter({ hasText: "No saved version" })).toHaveText(
      'No saved version "20200101T000000000Z-chat" of this memory exists.',
    );
    await expectAccessible(page);

    const oldest = (await listVersions(oda.home, null, ID))[3]!;
    await page.goto(`${HISTORY}?version=${oldest.name}`);
    await expect(page.getByRole("region", { name: "Changes" })).toBeVisible();
    await unlink(join(oda.home, "memory-history", "global", ID, oldest.name));
    await expect(page.getByRole("alert").filter({ hasText: "No saved version" })).toHaveText(
      `No saved version "${oldest.name}" of this memory exists.`,
    );
  });

  test("works in a narrow window", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(HISTORY);
    await page.getByRole("button", { name: "Side by side" }).click();
    await expect(page.getByRole("table", { name: /side by side/ })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("where a memory came from", () => {
  const SAVED = "b1b2c3d4";
  const ORPHAN = "c1b2c3d4";
  test.use({
    odaSetup: seed(async ({ home, logs }) => {
      const now = clock();
      await closedChat(logs, "c-saver", null, 1);
      const saver = { source: "chat" as const, sessionId: "c-saver", now };
      await createMemory(home, null, { title: "Week start", text: "Weeks start on Monday." }, { id: SAVED, ...saver });
      await changeMemory(home, null, SAVED, { text: "Weeks start on Monday, ISO numbering." }, saver);
      await createMemory(
        home,
        null,
        { title: "Old habit", text: "Round to whole euros." },
        { id: ORPHAN, source: "chat", sessionId: "c-gone", now },
      );
    }),
  });

  test("a memory links to the chat that saved it, and the chat lists it with links to its versions", async ({
    page,
    oda,
  }) => {
    const [version] = (await listVersions(oda.home, null, SAVED)).filter((v) => v.source === "chat");
    await page.goto(`/memory/global/${SAVED}`);
    await page.getByRole("link", { name: "chat c-saver" }).click();
    await expect(page).toHaveURL(/\/chats\/c-saver$/);
    await page.getByText("Memories this chat saved or changed").click();
    const item = page.getByRole("listitem").filter({ hasText: "Week start" }).first();
    await expect(item).toContainText("in Global · its current text is this chat's");
    await expect(page.getByText("Old habit")).toHaveCount(0); // another chat's memory is not listed
    await expectAccessible(page);
    await item.getByRole("link", { name: /^Version of .* of Week start$/ }).click();
    await expect(page).toHaveURL(new RegExp(`/memory/global/${SAVED}/history\\?version=${version!.name}$`));
    await expect(page.getByRole("region", { name: "Changes" })).toBeVisible();
  });

  test("a memory whose chat no longer exists says so, without a link", async ({ page }) => {
    await page.goto(`/memory/global/${ORPHAN}`);
    await expect(page.getByText("saved by the agent in chat c-gone, which no longer exists")).toBeVisible();
    await expect(page.getByRole("link", { name: /c-gone/ })).toHaveCount(0);
  });
});

test.describe("Recently deleted", () => {
  const GONE = "0badc0de";
  test.use({
    odaSetup: seed(async ({ home }) => {
      const now = clock("2026-12-01T09:00:00.000Z");
      await createMemory(
        home,
        "reports",
        { title: "Chart style", text: "No pie charts.\nLabel every axis." },
        { id: GONE, now },
      );
      await createMemory(home, null, { title: "Stays", text: "Still here." }, { id: "5ea75ea7", now });
      await deleteMemory(home, "reports", GONE, { now });
    }),
  });

  test("lists a deleted memory with its set and last text, links its history, and restores it", async ({
    page,
    oda,
  }) => {
    await page.goto("/memory/deleted");
    const item = page.getByRole("listitem", { name: "Chart style" });
    await expect(item).toContainText("Workspace reports");
    await expect(item).toContainText("No pie charts.\nLabel every axis.");
    await expect(item.locator("time")).toHaveAttribute("datetime", "2026-12-01T09:02:00.000Z");
    // one date format on the page: the formatted time, the ISO form only on hover
    await expect(item).not.toContainText("2026-12-01T09:02:00.000Z");
    await expect(page.getByRole("list", { name: "Deleted memories" }).getByRole("listitem")).toHaveCount(1);
    await expectAccessible(page);

    await item.getByRole("link", { name: "History of Chart style" }).click();
    await expect(page).toHaveURL(`/memory/workspaces/reports/${GONE}/history`);
    await expect(page.getByRole("note").filter({ hasText: "This memory was deleted" })).toBeVisible();
    await expect(page.getByRole("listitem", { name: /^Version / })).toHaveCount(1);
    await expectAccessible(page);

    await page.goBack();
    await page.getByRole("button", { name: "Restore Chart style" }).click();
    await expect(
      page.getByRole("status").filter({ hasText: "Restored “Chart style” to workspace reports memory." }),
    ).toBeVisible();
    await expect(page.getByText("No memory is deleted.")).toBeVisible();
    const path = join(oda.home, "memory", "workspaces", "reports", GONE);
    const restored = parseMemorySource(await readFile(path, "utf8"));
    expect(restored.ok && [restored.title, restored.text]).toEqual([
      "Chart style",
      "No pie charts.\nLabel every axis.",
    ]);

    // The restore offers Undo, as a save and a delete do: the memory goes back under Recently deleted,
    // and that too can be undone.
    const exists = () =>
      stat(path).then(
        () => true,
        () => false,
      );
    const notices = page.getByRole("region", { name: "Notifications" });
    await notices
      .getByRole("status")
      .filter({ hasText: "Restored “Chart style”" })
      .getByRole("button", { name: "Undo" })
      .click();
    await expect(
      notices.getByText("“Chart style” is deleted again; it waits here under Recently deleted."),
    ).toBeVisible();
    await expect(page.getByRole("list", { name: "Deleted memories" }).getByRole("listitem")).toHaveCount(1);
    await expect.poll(exists).toBe(false);
    await notices
      .getByRole("status")
      .filter({ hasText: "is deleted again" })
      .getByRole("button", { name: "Undo" })
      .click();
    await expect(page.getByText("No memory is deleted.")).toBeVisible();
    await expect.poll(exists).toBe(true);
  });
});
