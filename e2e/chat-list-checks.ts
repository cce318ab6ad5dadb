import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { type Checkpoint, encodeName, groupName, hashLogTail } from "../lib/chats";
import { createChat } from "../test-support/chats/testing";
import { expect, expectAccessible } from "./fixtures";

/**
 * What the chat list must do whichever way it is read: held whole in the page (a folder listed without an
 * index) or a window at a time from a built index (`server/views/chat-window.ts`). Each spec runs these over
 * both, so the two give the same list.
 */

export const CHATS = 3000;
const CWD = "/home/ana/many";
const T0 = Date.parse("2026-11-01T08:00:00.000Z");
const idOf = (i: number) => `c-${String(i).padStart(5, "0")}`;
const timeOf = (i: number) => new Date(T0 + i * 60_000).toISOString();
const titleOf = (i: number) => `Question about ${idOf(i)}`;

/**
 * Writes one plain chat through the writer, then stamps copies of its folder
 * under other ids: ids and times have the template's length, so each copy's log
 * is the template's with its id and times (to the minute) replaced, and its checkpoint the
 * template's with the new identity, title and tail hash (still a valid one, so
 * the list serves it as it would Oda's). A copy made like this takes microseconds;
 * the writer takes milliseconds per chat.
 */
export async function manyChats(home: string, logs: string): Promise<void> {
  writeFileSync(join(home, "settings.json"), JSON.stringify({ sessions: { compress: false } }));
  const template = createChat(logs, { id: idOf(0), cwd: CWD, created: timeOf(0) }, { compress: false });
  await template.appendTurn({ user: titleOf(0), assistant: `An answer for ${idOf(0)}.`, ts: timeOf(0) });
  await template.close();
  const logName = template.logPath.slice(template.dir.length + 1);
  const log = readFileSync(template.logPath, "utf8");
  const checkpoint = JSON.parse(readFileSync(join(template.dir, "session.cache.json"), "utf8")) as Checkpoint;
  // Every time of the template starts with the same minute (the writer adds seconds after `ts`): chat i is i minutes later.
  const minute = (i: number) => timeOf(i).slice(0, 16);
  const swap = (text: string, i: number) => text.replaceAll(idOf(0), idOf(i)).replaceAll(minute(0), minute(i));
  const group = join(logs, groupName(CWD));
  for (let i = 1; i < CHATS; i++) {
    const dir = join(group, encodeName(idOf(i)));
    mkdirSync(dir);
    const path = join(dir, logName);
    writeFileSync(path, swap(log, i));
    const copy: Checkpoint = JSON.parse(swap(JSON.stringify(checkpoint), i));
    copy.log.tailSha256 = hashLogTail(path, copy.log.bytes);
    writeFileSync(join(dir, "session.cache.json"), JSON.stringify(copy));
  }
}

/** The chat list over `manyChats`' 3,000 chats: few row elements, End and Home, scrolling, sorting, a find. */
export async function manyChatsChecks(page: Page): Promise<void> {
  await page.goto("/chats");
  await expect(page.getByText(`Showing 3,000 of 3,000 chats; 0 with problems.`)).toBeVisible({ timeout: 60_000 });
  await page.getByLabel("Group by working folder").uncheck();
  const table = page.getByRole("table", { name: "Chats" });
  const rows = table.getByRole("row");
  const titles = rows.getByRole("link");
  /** The link is drawn inside the scroller's visible box (not just present in the DOM). */
  const inScroller = (title: string) =>
    expect
      .poll(() =>
        table.getByRole("link", { name: title, exact: true }).evaluate((link) => {
          const box = link.getBoundingClientRect();
          const view = (link.closest("[role=table]") as HTMLElement).getBoundingClientRect();
          return box.top >= view.top && box.bottom <= view.bottom;
        }),
      )
      .toBe(true);
  const toBottom = async () => {
    // The virtualiser measures rows as they appear and the total height moves: scroll until it holds.
    await expect(async () => {
      await table.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
      expect(await table.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1)).toBe(true);
    }).toPass();
  };

  // Newest first by default: the last chat written leads, the first is at the very bottom.
  await expect(titles.first()).toHaveText(titleOf(CHATS - 1));
  await expect(table).toHaveAttribute("aria-rowcount", String(CHATS + 1));
  expect(await rows.count()).toBeLessThan(150);

  // One End press reaches the last row, though the rows below the fold are only estimated; Home the first.
  await table.focus();
  await page.keyboard.press("End");
  await inScroller(titleOf(0));
  await page.keyboard.press("Home");
  await inScroller(titleOf(CHATS - 1));

  await toBottom();
  await inScroller(titleOf(0));
  await expect(titles.last()).toHaveText(titleOf(0));
  expect(await rows.count()).toBeLessThan(150);
  await expect(table.getByRole("link", { name: titleOf(CHATS - 1), exact: true })).toHaveCount(0);

  // Sorting reorders all 3,000, not just the rows on screen.
  await table.evaluate((el) => el.scrollTo({ top: 0 }));
  await page.getByRole("button", { name: "Title" }).click();
  await expect(page.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "ascending");
  await expect(titles.first()).toHaveText(titleOf(0));
  await page.getByRole("button", { name: "Title" }).click();
  await expect(page.getByRole("columnheader", { name: "Title" })).toHaveAttribute("aria-sort", "descending");
  await expect(titles.first()).toHaveText(titleOf(CHATS - 1));
  await toBottom();
  await inScroller(titleOf(0));
  expect(await rows.count()).toBeLessThan(150);

  // A chat in the middle is one id filter away.
  await page.getByLabel("Find by id or title").fill(idOf(1500));
  await expect(page.getByText("Showing 1 of 3,000 chats")).toBeVisible();
  await expect(titles).toHaveText([titleOf(1500)]);
}

/**
 * Over `problemFolder`'s nine chats: sorting by columns, and filtering by lock, problems, format, working
 * folder and id, a filter no chat matches, and a chat that is not there.
 */
export async function sortAndFilterNine(page: Page): Promise<void> {
  await page.goto("/chats");
  await expect(page.getByText(/Showing 9 of 9 chats/)).toBeVisible({ timeout: 30_000 });
  await page.getByLabel("Group by working folder").uncheck();
  const titles = page.getByRole("table", { name: "Chats" }).getByRole("row").getByRole("link");

  // A count sorts largest first when chosen (the biggest chats are the ones looked for), then flips.
  await page.getByRole("button", { name: "Messages" }).click();
  await expect(page.getByRole("columnheader", { name: "Messages" })).toHaveAttribute("aria-sort", "descending");
  await expect(titles.first()).toHaveText("Question 1 of c-old"); // 8 messages, the most
  await page.getByRole("button", { name: "Messages" }).click();
  await expect(page.getByRole("columnheader", { name: "Messages" })).toHaveAttribute("aria-sort", "ascending");
  await page.getByRole("button", { name: "Tokens" }).click();
  await expect(page.getByRole("columnheader", { name: "Tokens" })).toHaveAttribute("aria-sort", "descending");

  await page.getByRole("button", { name: "Title" }).click();
  await expect(titles.first()).toHaveText("before the crash");

  await page.getByLabel("Lock state").selectOption("stale");
  await expect(page.getByText("Showing 1 of 9 chats")).toBeVisible();
  await expect(titles).toHaveText(["Question 1 of c-stale"]);

  await page.getByLabel("Lock state").selectOption("");
  await page.getByLabel("Has problems").check();
  await expect(page.getByText("Showing 5 of 9 chats")).toBeVisible();

  await page.getByLabel("Has problems").uncheck();
  await page.getByRole("combobox", { name: "Working folder" }).selectOption({ label: "_no-cwd" });
  await expect(titles).toHaveText(["Question 1 of c-old"]);

  await page.getByRole("combobox", { name: "Working folder" }).selectOption("");
  await page.getByLabel("Format").selectOption({ label: "No usable log" });
  await expect(page.getByRole("table", { name: "Chats" }).getByRole("row").filter({ hasText: "c-form" })).toBeVisible();
  await expect(page.getByText("Showing 1 of 9 chats")).toBeVisible();

  await page.getByLabel("Format").selectOption("");
  await page.getByLabel("Find by id or title").fill("c-behind");
  // Served from the checkpoint, which is behind the log: the title from before the last save.
  await expect(titles).toHaveText(["Question 1 of c-behind"]);

  // A filter no chat matches says so, with the way back to every chat.
  await page.getByLabel("Find by id or title").fill("no chat is called this");
  await expect(page.getByRole("status").filter({ hasText: "No chat matches these filters." })).toBeVisible();
  await expect(page.getByRole("table", { name: "Chats" })).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.getByLabel("Find by id or title")).toHaveValue("");
  await expect(page.getByText(/Showing 9 of 9 chats/)).toBeVisible();

  // A chat that is not in the log folder: a 404 that says so in the CLI's sentence.
  const res = await page.goto("/chats/nope-id");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText(
    'No chat with the id "nope-id" is in the log folder.',
  );
  await expect(page.getByRole("link", { name: "All chats" })).toBeVisible();
}
