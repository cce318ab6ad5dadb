import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, seed, test } from "./fixtures";
import { makeHostileLogs } from "./hostile-logs";

/**
 * Issue 10's hostile logs in the production server: zstd bombs (zeros and
 * newlines, smaller than the issue's 5 GB and 3 GB: the ratio guard stops
 * both at 16 MiB decoded either way) and the issue's 200 MB line. Each page
 * answers with the problem while another page keeps answering meanwhile.
 */

// Made once per spec (by the first test's setup: fixtures run before a file's beforeAll) and copied per test.
let made: Promise<string> | null = null;
function hostileLogs(): Promise<string> {
  made ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), "oda-hostile-"));
    await makeHostileLogs(dir, { zeros: "1G", newlines: "512M", longLine: "200M" });
    return dir;
  })();
  return made;
}
test.afterAll(async () => {
  if (made) rmSync(await made, { recursive: true, force: true });
});

// Reading a bomb to its stop takes seconds on a busy machine, and the first test also makes the logs.
test.describe.configure({ timeout: 300_000 });

test.use({
  odaSetup: seed(async ({ logs }) => {
    cpSync(await hostileLogs(), logs, { recursive: true });
  }),
});

const BOMB =
  /decodes to more than 1000 times its compressed size \(\d+ bytes from its first \d+ bytes\), as a zstd bomb does; reading stopped at byte \d+ of the file \(decoded byte \d+\); every line before it is kept\./;

/** Opens the memory page in a second tab while `work` runs, and expects it to answer before `work` ends. */
async function anotherPageAnswers(page: Page, work: Promise<void>): Promise<void> {
  const other = await page.context().newPage();
  let workDone = false;
  const tracked = work.then(() => {
    workDone = true;
  });
  await other.goto("/memory");
  await expect(other.getByRole("heading", { level: 1 })).toBeVisible();
  const answeredFirst = !workDone;
  await tracked;
  await other.close();
  expect(answeredFirst, "the memory page answered while the hostile page was still loading").toBe(true);
}

test("the chat list shows each bomb's problem, and the memory page answers meanwhile", async ({ page }) => {
  const list = (async () => {
    await page.goto("/chats");
    await expect(page.getByText(BOMB).first()).toBeVisible({ timeout: 90_000 });
  })();
  await anotherPageAnswers(page, list);
  await expect(page.getByText(BOMB)).toHaveCount(2);
  await expectAccessible(page);
});

test("a bomb's chat page shows its first line and where reading stopped", async ({ page }) => {
  const open = (async () => {
    await page.goto("/chats/c-newlines");
    await expect(page.getByRole("list", { name: "Problems of this chat" }).getByText(BOMB)).toBeVisible({
      timeout: 90_000,
    });
  })();
  await anotherPageAnswers(page, open);
  await expect(page.getByText("hello", { exact: true }).first()).toBeVisible();
  await expectAccessible(page);
});

test("a 200 MB line shows truncated with its length, and downloads whole", async ({ page, oda }) => {
  await page.goto("/chats/c-long-line");
  const note = page.getByText(/^Line 2 is 200 MB long \([\d,]+ bytes\); shown truncated\./);
  await expect(note).toBeVisible({ timeout: 90_000 });
  const length = Number(((await note.textContent()) ?? "").match(/\(([\d,]+) bytes\)/)?.[1]?.replaceAll(",", ""));
  expect(length).toBeGreaterThan(200 * 1024 * 1024);
  await expect(
    page
      .getByRole("list", { name: "Problems of this chat" })
      .getByText(`Line 2 of the log (at decoded byte 65) is ${length} bytes long`),
  ).toBeVisible();
  const link = page.getByRole("link", { name: "Download line 2" });
  const href = await link.getAttribute("href");
  // Streamed and counted here rather than saved: the download is the line's bytes alone, never held whole.
  const res = await fetch(`${oda.baseURL}${href}`, {
    headers: { authorization: `Bearer ${oda.token}`, "accept-encoding": "gzip, deflate, br" },
  });
  expect(res.status).toBe(200);
  // Sent as it is, not gzipped on the fly by the server's thread.
  expect(res.headers.get("content-encoding")).toBeNull();
  let bytes = 0;
  let head = "";
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    if (!head) head = Buffer.from(chunk).toString("utf8", 0, 40);
    bytes += chunk.length;
  }
  expect(bytes).toBe(length);
  expect(head.startsWith('{"time":"2026-11-29T18:25:00.000Z"')).toBe(true);
  await expectAccessible(page);
});
