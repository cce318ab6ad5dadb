import type { Locator, Page } from "@playwright/test";
import { type ChatWriter, createChat } from "../test-support/chats/testing";
import { at } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

// A loaded machine (load 30 on 2 cores) lists and decodes slowly: wait for states, with room to get there.
test.describe.configure({ timeout: 180_000 });

/** Issue 11, items 10 and 13: a linked line is on screen at 1280×800, and a jump that cannot happen says why. */

const TURNS = 250; // 1 header line + 3 lines a turn: 751 lines, well past one screen and one page of 200

/** The line highlighted as current, once it is rendered. */
function currentLine(page: Page): Locator {
  return page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" }).locator('[aria-current="true"]');
}

test.describe("a long chat at 1280×800", () => {
  test.use({
    viewport: { width: 1280, height: 800 },
    odaSetup: seed(async ({ logs }) => {
      const w = createChat(logs, { id: "c-long", cwd: "/home/ana/reports", created: at(0) });
      for (let i = 1; i <= TURNS; i++)
        await w.appendTurn({ user: `Question ${i} of c-long`, assistant: `Answer ${i} of c-long`, ts: at(i) });
      await w.close();
    }),
  });

  test("a linked line opens on screen, and the log pane takes the window's height", async ({ page }) => {
    await page.goto("/chats/c-long?view=raw&line=449");
    await expect(currentLine(page)).toContainText("Question 150 of c-long");
    await expect(currentLine(page)).toBeInViewport();
    const pane = await page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" }).boundingBox();
    expect(pane?.height ?? 0).toBeGreaterThanOrEqual(600);
    // The header's details are folded away, one click from view.
    const details = page.getByText("Details, log generations and downloads");
    await expect(page.getByText("Download the decompressed log")).toBeHidden();
    await details.click();
    await expect(page.getByText("Download the decompressed log")).toBeVisible();
    await expectAccessible(page);
  });

  test("jump, find next and a search result's link scroll the line into view", async ({ page }) => {
    await page.goto("/chats/c-long");
    await expect(page.getByText(/^751 lines · /)).toBeVisible();
    await page.getByLabel("Jump to line").fill("600");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await expect(page).toHaveURL(/line=600/);
    await expect(currentLine(page)).toContainText("Answer 200 of c-long");
    await expect(currentLine(page)).toBeInViewport();

    await page.getByLabel("Find in this chat").fill("Question 230 of");
    await page.getByRole("button", { name: "Find next" }).click();
    await expect(page.getByText("“Question 230 of” found at line 689.")).toBeVisible();
    await expect(currentLine(page)).toContainText("Question 230 of c-long");
    await expect(currentLine(page)).toBeInViewport();

    await page.goto("/chats/c-long?line=300");
    await expect(currentLine(page)).toContainText("Answer 100 of c-long");
    await expect(currentLine(page)).toBeInViewport();
  });

  test("End keeps the last line in the window while content above the log arrives late; a wheel lets go", async ({
    page,
  }) => {
    // The activity strip is read after the first screen (seconds for a big log): hold it back until after End.
    let stripRead = () => {};
    const strip = new Promise<void>((done) => {
      stripRead = done;
    });
    await page.route(/\/chats\/c-long\/activity/, async (route) => {
      await strip;
      await route.continue();
    });
    await page.goto("/chats/c-long?view=raw");
    await expect(page.getByText(/^751 lines · /)).toBeVisible();
    await expect(page.getByText("Reading the chat's activity…")).toBeVisible();
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    const last = lines
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: "Link to line 751", exact: true }) });
    await page.getByRole("button", { name: "End", exact: true }).click();
    await expect(last).toBeInViewport({ ratio: 1 });

    // The strip arrives in the place kept for it: nothing moves. (It used to push the pane 112 px down, the
    // last line out of the window: the browser's scroll anchoring does not make up for what grows below the
    // element it anchors to, here one above the strip.)
    const scrolled = await page.evaluate(() => window.scrollY);
    stripRead();
    await expect(page.getByRole("figure", { name: /^Activity over time/ })).toBeVisible();
    await expect(last).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

    // Anything else that grows between the toolbar and the pane (a page's error, the notes' list) moves the
    // pane down as far: End's hold brings its bottom back into the window.
    const grow = (height: number) =>
      lines.evaluate((pane, h) => {
        const late = document.getElementById("late-above") ?? document.createElement("div");
        late.id = "late-above";
        late.style.height = `${h}px`;
        pane.before(late);
      }, height);
    await grow(300);
    await expect(last).toBeInViewport({ ratio: 1 });

    // A wheel lets go: the pane stays where the reader put it when the page above it changes again.
    await last.hover();
    await page.mouse.wheel(0, -600);
    await expect(last).not.toBeInViewport();
    // The pane's scroll position once two frames have passed (resize observers and the scrolls they start run).
    const paneTop = () =>
      lines.evaluate(
        (pane) =>
          new Promise<number>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(pane.scrollTop)))),
      );
    let top = await paneTop();
    await expect(async () => {
      // The wheel's scroll has ended: the position holds from one look to the next.
      const now = await paneTop();
      const still = now === top;
      top = now;
      expect(still).toBe(true);
    }).toPass();
    await grow(600);
    expect(await paneTop()).toBe(top);
    await expect(last).not.toBeInViewport();

    // The End key in the pane is End too, and holds again.
    await grow(0);
    await lines.focus();
    await page.keyboard.press("End");
    await expect(last).toBeInViewport({ ratio: 1 });
    await grow(300);
    await expect(last).toBeInViewport({ ratio: 1 });
    await expectAccessible(page);
  });

  test("End pressed while the log is still being counted goes on to the last line once the count arrives", async ({
    page,
  }) => {
    // The first page ends at line 200; the count comes from the status route: hold it back until after End.
    let counted = () => {};
    const count = new Promise<void>((done) => {
      counted = done;
    });
    await page.route(/\/chats\/c-long\/status/, async (route) => {
      await count;
      await route.continue();
    });
    await page.goto("/chats/c-long?view=raw");
    await expect(page.getByText("200+ lines so far; counting the rest…")).toBeVisible();
    await page.getByRole("button", { name: "End", exact: true }).click();
    await expect(page).toHaveURL(/line=200(&|$)/);
    counted();
    await expect(page.getByText(/^751 lines · /)).toBeVisible();
    await expect(page).toHaveURL(/line=751(&|$)/);
    await expect(currentLine(page).getByRole("link", { name: "Link to line 751", exact: true })).toBeVisible();
    await expect(currentLine(page)).toBeInViewport({ ratio: 1 });
  });

  test("a line that does not exist is refused with why, and the view stays where it was", async ({ page }) => {
    await page.goto("/chats/c-long?view=raw&line=8");
    await expect(currentLine(page)).toContainText("Question 3 of c-long");
    await expect(page.getByText(/^751 lines · /)).toBeVisible(); // the log is counted
    await page.getByLabel("Jump to line").fill("99999");
    await page.getByRole("button", { name: "Go", exact: true }).click();
    await expect(page.getByText("Line 99,999 does not exist: this log has 751 lines.")).toBeVisible();
    await expect(page).toHaveURL(/line=8(&|$)/);
    await expect(currentLine(page)).toContainText("Question 3 of c-long");
  });
});

test.describe("next error after the last one", () => {
  test.use({
    odaSetup: seed(async ({ logs }) => {
      const w: ChatWriter = createChat(logs, { id: "c-broken", cwd: null, created: at(0) });
      await w.appendTurn({ user: "first", assistant: "one", ts: at(1) });
      await w.writeSave(await w.encodeSave(["this line is not JSON"]), null); // line 5, by hand
      await w.appendTurn({ user: "second", assistant: "two", ts: at(2) });
      await w.close();
    }),
  });

  test("says there is no invalid line after it, and why", async ({ page }) => {
    await page.goto("/chats/c-broken?view=raw");
    const next = page.getByRole("button", { name: "Next error" });
    await next.click();
    await expect(page.getByText(/^Invalid line 5 at byte [\d,]+\.$/)).toBeVisible();
    await next.click();
    await expect(page.getByText("No invalid line after line 5: lines 6 to 8 are all valid.")).toBeVisible();
    await expect(currentLine(page)).toContainText("this line is not JSON");
    await page.getByRole("button", { name: "End", exact: true }).click();
    await expect(page).toHaveURL(/line=8(&|$)/);
    await next.click();
    await expect(page.getByText("No invalid line after line 8: it is the last line of this log.")).toBeVisible();
  });
});
