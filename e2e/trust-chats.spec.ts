import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { leaveDeadLock } from "../test-support/chats/testing";
import { at, closedChat } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";
import { useLiveChat } from "./live-chat";

// A loaded machine (load 30 on 2 cores) lists and decodes slowly: wait for states, with room to get there.
test.describe.configure({ timeout: 180_000 });

/** Issue 11, items 11, 12, 14 and 18: list state in the URL, follow refreshes the details, both copies, small things. */

test.describe("the chat list", () => {
  test.use({
    odaSetup: seed(async ({ logs }) => {
      await closedChat(logs, "c-alpha", "/home/ana/reports", 3, { start: 10 });
      await closedChat(logs, "c-beta", "/home/ana/reports", 1, { start: 20 });
      await closedChat(logs, "c-gamma", "/home/ana/reports", 2, { start: 30 });
      const lone = await closedChat(logs, "c-lone", "/srv/lone", 1, { start: 40 });
      leaveDeadLock(lone.dir);
    }),
  });

  test("filters, sort and grouping live in the URL: Back from a chat restores them", async ({ page }) => {
    await page.goto("/chats");
    await expect(page.getByText(/^Showing 4 of 4 chats/)).toBeVisible({ timeout: 90_000 });
    const table = page.getByRole("table", { name: "Chats" });
    await expect(table.getByRole("link", { name: "Question 1 of c-lone" })).toBeVisible();
    await page.getByRole("combobox", { name: "Working folder" }).selectOption({ label: "/home/ana/reports" });
    await page.getByLabel("Group by working folder").uncheck();
    await table.getByRole("button", { name: "Messages" }).click();
    await page.getByLabel("Find by id or title").fill("c-");
    await expect(page).toHaveURL(/sort=messages/);
    await expect(page).toHaveURL(/grouped=false/);
    await expect(page).toHaveURL(/find=c-/);
    const titles = table.getByRole("row").getByRole("link");
    await expect(titles).toHaveText(["Question 1 of c-alpha", "Question 1 of c-gamma", "Question 1 of c-beta"]);

    await titles.first().click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Question 1 of c-alpha");
    await page.goBack();
    await expect(page.getByLabel("Find by id or title")).toHaveValue("c-");
    await expect(page.getByLabel("Group by working folder")).not.toBeChecked();
    await expect(page.getByRole("combobox", { name: "Working folder" })).toHaveValue("--%2Fhome%2Fana%2Freports--");
    // a count sorts largest first when chosen
    await expect(table.getByRole("columnheader", { name: "Messages" })).toHaveAttribute("aria-sort", "descending");
    await expect(titles).toHaveText(["Question 1 of c-alpha", "Question 1 of c-gamma", "Question 1 of c-beta"]);
  });

  test("a group of one reads “1 chat”", async ({ page }) => {
    await page.goto("/chats");
    await expect(page.getByText(/^Showing 4 of 4 chats/)).toBeVisible({ timeout: 90_000 });
    const table = page.getByRole("table", { name: "Chats" });
    await expect(table.getByRole("cell", { name: "/srv/lone · 1 chat", exact: true })).toBeVisible();
    await expect(table.getByRole("cell", { name: "/home/ana/reports · 3 chats", exact: true })).toBeVisible();
  });

  test("at 390 px a row shows its lock and its problems without scrolling sideways", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/chats");
    await expect(page.getByText(/^Showing 4 of 4 chats/)).toBeVisible({ timeout: 90_000 });
    await page.getByLabel("Find by id or title").fill("c-lone");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Question 1 of c-lone" }) });
    // Folded into the row: within the 390 px width, where the old table put them 50 rem to the right.
    // the column's name is drawn beside its value by CSS, so it is not part of the cell's text
    await expect(row.locator('[data-label="Lock:"]')).toBeVisible();
    for (const cell of [
      row.locator('[data-label="Lock:"]'),
      row.getByText("stale lock").first(),
      row.getByText(/^\d+ problems?$/),
    ]) {
      await expect(cell).toBeVisible();
      const box = await cell.boundingBox();
      expect((box?.x ?? 9999) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
    }
    // Grouped, the working folder is the heading above the rows: the row does not repeat it.
    // (kept for screen readers, which name it by its column header: out of sight, not out of the table)
    const folderCell = row.getByRole("cell").filter({ hasText: "/srv/lone" });
    const folderWidth = () => folderCell.evaluate((c) => c.getBoundingClientRect().width);
    await expect.poll(folderWidth).toBeLessThanOrEqual(1);
    await expect(page.getByRole("cell", { name: "/srv/lone · 1 chat", exact: true })).toBeVisible();
    await page.getByLabel("Group by working folder").uncheck();
    await expect.poll(folderWidth).toBeGreaterThan(100);
    await expectAccessible(page);

    // A folder path wraps after a "/", never inside a name: in a box too narrow for the whole path,
    // each name stays on one line ("Übe rsetzungen" was the complaint).
    const linesPerName = await folderCell.evaluate((cell) => {
      const box = cell as HTMLElement;
      box.style.width = "4.5em";
      box.style.maxWidth = "4.5em";
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      const out: Record<string, number> = {};
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/[^/]+/g)) {
          if (m[0] !== "srv" && m[0] !== "lone") continue;
          const range = document.createRange();
          range.setStart(node, m.index ?? 0);
          range.setEnd(node, (m.index ?? 0) + m[0].length);
          out[m[0]] = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
      }
      return {
        out,
        height: box.getBoundingClientRect().height,
        line: Number.parseFloat(getComputedStyle(box).lineHeight),
      };
    });
    expect(linesPerName.out).toEqual({ srv: 1, lone: 1 });
    expect(linesPerName.height).toBeGreaterThan(linesPerName.line * 1.5); // it did wrap
  });

  test("favicon.ico is served, no page asks for anything missing, every text field has dir=auto", async ({ page }) => {
    const icon = await page.request.get("/favicon.ico");
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toContain("image/");
    const missing: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    for (const path of ["/chats", "/chats/c-alpha", "/search", "/memory", "/memory/global/new", "/support"]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      const fields = page.locator('input:not([type]), input[type="text"], input[type="search"], textarea');
      expect(await fields.count(), path).toBeGreaterThan(0);
      for (const field of await fields.all()) await expect(field, path).toHaveAttribute("dir", "auto");
    }
    expect(missing).toEqual([]);
  });
});

test.describe("follow mode", () => {
  // The test process itself holds the chat's lock, as a copy of Oda would.
  const live = useLiveChat();

  test("refreshes lines, messages, last activity and the checkpoint state as the log grows", async ({ page }) => {
    await page.goto("/chats/c-live");
    await page.getByText("Details, log generations and downloads").click();
    const details = page.locator("details", { hasText: "Details, log generations and downloads" });
    const row = (term: string) => details.locator("div", { has: page.getByText(`${term}:`, { exact: true }) }).last();
    await expect(row("Lines")).toContainText("4");
    await expect(row("Messages")).toContainText("2");
    await expect(row("Checkpoint")).toContainText("cached — The checkpoint matches the log.");
    await page.getByRole("button", { name: "Follow new lines" }).click();
    await expect(page.getByRole("button", { name: "Following new lines" })).toBeVisible();
    // A save after the checkpoint, as Oda makes between turns: the checkpoint falls behind.
    await live.writer.appendEvents([
      { type: "message", ts: at(2), role: "user", content: [{ type: "text", text: "Asked while following" }] },
      { type: "message", ts: at(3), role: "assistant", content: [{ type: "text", text: "Answered while following" }] },
    ]);
    await expect(page.getByText("2 new lines; 6 in all.")).toBeVisible();
    await expect(row("Lines")).toHaveText("Lines:6");
    await expect(row("Messages")).toHaveText("Messages:4");
    await expect(row("Last activity").locator("time")).toHaveAttribute("datetime", "2026-11-29T18:03:00.000Z");
    await expect(row("Checkpoint")).toContainText(
      /^Checkpoint:behind — The log has \d+ bytes more than the checkpoint counts\./,
    );
  });
});

test.describe("a chat stored in two places", () => {
  test.use({
    odaSetup: seed(async ({ logs }) => {
      await closedChat(logs, "c-dup", "/srv/a", 1, { start: 0 });
      await closedChat(logs, "c-dup", "/srv/b", 2, { start: 30 });
    }),
  });

  test("shows both copies side by side, each viewable read-only", async ({ page, oda }) => {
    const b = join(oda.logs, "--%2Fsrv%2Fb--", "c-dup");
    const sha = createHash("sha256")
      .update(readFileSync(join(b, "session.v4.jsonl.zstd")))
      .digest("hex");
    await page.goto("/chats/c-dup");
    await expect(page.getByRole("alert").filter({ hasText: "is stored in two places" })).toBeVisible();
    const copyB = page.getByRole("region", { name: new RegExp(`^Copy \\d, in ${b.replaceAll("/", "\\/")}$`) });
    await expect(copyB).toContainText(`SHA-256 ${sha}`);
    await expect(copyB).toContainText("Lines:7 lines");
    await expect(copyB.locator("time").first()).toHaveAttribute("datetime", "2026-11-29T18:30:00.000Z");
    await expect(copyB.locator("time").last()).toHaveAttribute("datetime", /^2026-11-29T18:31:/);
    await expect(page.getByRole("region", { name: /^Copy \d, in .*%2Fsrv%2Fa--/ })).toContainText("Lines:4 lines");
    await expectAccessible(page);

    await copyB.getByRole("link", { name: /^View copy \d \(read-only\)$/ }).click();
    await expect(page).toHaveURL(/copy=\d/);
    const lines = page.getByRole("region", { name: /^Lines of copy \d, session\.v4\.jsonl\.zstd$/ });
    await expect(lines.getByText('"text":"Question 2 of c-dup"', { exact: false })).toBeVisible();
    await expect(page.getByRole("button", { name: "Follow new lines" })).toHaveCount(0);
    await expect(copyB.getByText("Shown below")).toBeVisible();
    await expectAccessible(page);
  });
});
