import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { LockHolder } from "../lib/fs/lock";
import { createChat, leaveDeadLock } from "../test-support/chats/testing";
import { at, closedChat, snapshot } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";
import { useLiveChat } from "./live-chat";

test.describe("a chat Oda is writing", () => {
  // The test process itself holds the chat's lock, as a copy of Oda would.
  const live = useLiveChat();

  test("the page is read-only: no action that writes", async ({ page }) => {
    await page.goto("/chats/c-live");
    await expect(page.getByText("Oda is writing this chat: read-only")).toBeVisible();
    await expect(page.getByText(`Held by process ${process.pid} on ${hostname()}`)).toBeVisible();
    await expect(page.getByRole("button", { name: "Free this chat" })).toHaveCount(0);
    await expectAccessible(page);

    // Find next, not following, finds a line written after the page read the log's line count:
    // the viewer takes in the new lines, then shows, marks and links the line it names.
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    await expect(lines.getByText("Hello while writing")).toBeVisible();
    await live.writer.appendTurn({
      user: "How do I import the sales file?",
      assistant: "Use the import wizard",
      ts: at(2),
    });
    await page.getByLabel("Find in this chat").fill("import");
    await page.getByRole("button", { name: "Find next" }).click();
    await expect(page.getByText(/^“import” found at line \d+\.$/)).toBeVisible();
    const said = Number((await page.getByText(/^“import” found at line \d+\.$/).textContent())?.match(/\d+/)?.[0]);
    expect(said).toBeGreaterThan(4); // past the 4 lines the page opened with
    const marked = lines.locator('[aria-current="true"]');
    await expect(marked).toContainText("How do I import the sales file?");
    await expect(page).toHaveURL(new RegExp(`[?&]line=${said}(&|$)`));
    await expect(page.getByText("7 lines", { exact: false }).first()).toBeVisible();
  });

  test("follow mode shows a turn appended while the page is open", async ({ page }) => {
    await page.goto("/chats/c-live");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    await expect(lines.getByText("Hello while writing")).toBeVisible();
    await page.getByRole("button", { name: "Follow new lines" }).click();
    await expect(page.getByRole("button", { name: "Following new lines" })).toHaveAttribute("aria-pressed", "true");
    await live.writer.appendTurn({ user: "A question asked while following", assistant: "And its answer", ts: at(2) });
    await expect(lines.getByText("A question asked while following")).toBeVisible();
    await expect(lines.getByText("And its answer")).toBeVisible();
    await expect(page.getByText("3 new lines; 7 in all.")).toBeVisible();
  });
});

test.describe("a chat left locked by a dead process", () => {
  let holder: LockHolder;
  let dir: string;
  test.use({
    odaSetup: seed(async ({ logs }) => {
      const w = await closedChat(logs, "c-stale", "/home/ana", 2);
      await closedChat(logs, "c-other", "/home/ana", 1);
      holder = leaveDeadLock(w.dir);
      dir = w.dir;
    }),
  });

  test("Free this chat asks, naming the dead process, then removes only the lock file", async ({ page, oda }) => {
    const other = join(oda.logs, "--%2Fhome%2Fana--", "c-other");
    const before = { chat: snapshot(dir), other: snapshot(other) };
    await page.goto("/chats/c-stale");
    await expect(page.getByText("Stale lock")).toBeVisible();
    await page.getByRole("button", { name: "Free this chat" }).click();
    const dialog = page.getByRole("dialog", { name: "Free this chat?" });
    await expect(dialog).toContainText(`process ${holder.pid} on ${holder.host}, started`);
    await expect(dialog).toContainText(
      "If a chat stays locked because the copy of Oda holding it cannot continue, removing that file frees the chat for the next writer; do this only when you are sure that copy will not write the chat again.",
    );
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Remove the lock" }).click();
    await expect(page.getByText("Chat freed: its session.lock was removed; nothing else was touched.")).toBeVisible();
    await expect(page.getByText("Lock: none")).toBeVisible();
    expect(existsSync(join(dir, "session.lock"))).toBe(false);
    const { "session.lock": _gone, ...rest } = before.chat;
    expect(snapshot(dir)).toEqual(rest);
    expect(snapshot(other)).toEqual(before.other);
  });
});

test.describe("a large log", () => {
  const LINES = 300_000;
  test.use({
    odaSetup: seed(async ({ logs }) => {
      const w = createChat(logs, { id: "c-big", cwd: "/data", created: at(0) });
      const batch = 25_000;
      for (let start = 2; start <= LINES + 1; start += batch) {
        const events = [];
        for (let n = start; n < start + batch && n <= LINES + 1; n++) events.push({ type: "tick", ts: at(0), seq: n });
        await w.appendEvents(events);
      }
      await w.close();
    }),
  });

  test("jumps to a line deep in the log, to the end, and opens at a linked line", async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto("/chats/c-big?view=raw");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    await expect(lines.getByText('{"type":"tick","ts":"2026-11-29T18:00:00.000Z","seq":2}')).toBeVisible();
    await expect(page.getByText(`${(LINES + 1).toLocaleString("en")} lines ·`)).toBeVisible();
    await page.getByLabel("Jump to line").fill("250000");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await expect(lines.getByRole("link", { name: "Link to line 250000", exact: true })).toBeVisible();
    await expect(lines.locator('[aria-current="true"]')).toContainText('"seq":250000}');
    await expect(page).toHaveURL(/line=250000/);

    await page.getByRole("button", { name: "End", exact: true }).click();
    await expect(lines.getByText(`"seq":${LINES + 1}}`)).toBeVisible();

    await page.goto("/chats/c-big?view=raw&line=123456");
    await expect(lines.locator('[aria-current="true"]')).toContainText('"seq":123456}');
  });
});
