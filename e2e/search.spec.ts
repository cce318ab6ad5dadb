import { chatWithTurns } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

/** Two chats written with the project's own writer: the zebra answer is line 6 of "c-zebra". */
async function writeChats(logs: string) {
  await chatWithTurns(logs, { id: "c-zebra", cwd: "/home/ana/zoo", created: "2026-11-20T09:00:00.000Z" }, [
    { user: "Tell me about stripes", assistant: "Horses have none.", ts: "2026-11-20T09:01:00.000Z" },
    {
      user: "Which animal has black and white stripes?",
      assistant: "The zebra does, and each zebra's pattern is unique.",
      ts: "2026-11-20T09:02:00.000Z",
    },
  ]);
  await chatWithTurns(logs, { id: "c budget/1", cwd: "/home/ana/reports", created: "2026-11-25T10:00:00.000Z" }, [
    { user: "Summarise the quarterly budget", assistant: "The budget grew by 4%.", ts: "2026-11-25T10:01:00.000Z" },
  ]);
}

test.use({ odaSetup: seed(async ({ logs }) => writeChats(logs)) });

test.describe("search", () => {
  test("search, click a result, land on the line", async ({ page }) => {
    await page.goto("/search");
    await expect(page.getByRole("heading", { level: 1, name: "Search" })).toBeVisible();
    // The page builds the index in the background and says when it is current.
    await expect(page.getByText("The search index is up to date (2 chats).")).toBeVisible({ timeout: 20_000 });
    await page.getByLabel("Search chats").fill("zebra");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/\/search\?q=zebra$/);
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Tell me about stripes" })).toBeVisible();
    await expect(results.getByText("1 match", { exact: true })).toBeVisible();
    await expect(results.locator("mark", { hasText: "zebra" }).first()).toBeVisible();
    await expect(results.getByText("/home/ana/zoo · chat c-zebra", { exact: false })).toBeVisible();
    await expectAccessible(page);
    const hit = results.getByRole("link", { name: /^line 6 assistant .*zebra.*, in Tell me about stripes$/ });
    await expect(hit).toHaveAttribute("href", "/chats/c-zebra?line=6");
    await hit.click();
    await expect(page).toHaveURL(/\/chats\/c-zebra\?line=6/);
    await expect(page.locator('[role="listitem"][aria-current="true"]')).toContainText("The zebra does");
  });

  test("Only chats with notes: a chat with a mark is kept, the other left out; the box is in the URL", async ({
    page,
  }) => {
    test.slow(); // the chat page, an index build, a reload and axe on a shared machine
    // A mark on line 6 of c-zebra, made as a person makes it: m on the line.
    await page.goto("/chats/c-zebra?line=6&view=raw");
    await expect(page.locator('[role="listitem"][aria-current="true"]')).toContainText("The zebra does");
    await page.keyboard.press("m");
    await expect(page.getByText("Line 6 marked.")).toBeVisible();

    await page.goto("/search");
    await expect(page.getByText("The search index is up to date (2 chats).")).toBeVisible({ timeout: 20_000 });
    await page.getByLabel("Search chats").fill("stripes OR budget");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Summarise the quarterly budget" })).toBeVisible({
      timeout: 20_000,
    });
    await expect(results.getByRole("heading", { name: "Tell me about stripes" })).toBeVisible();
    const notes = page.getByLabel("Only chats with notes");
    await expect(notes).not.toBeChecked();
    await notes.check();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(/notes=1/);
    await expect(results.getByRole("heading", { name: "Summarise the quarterly budget" })).toHaveCount(0);
    await expect(results.getByRole("heading", { name: "Tell me about stripes" })).toBeVisible();
    // The address keeps it: a reload shows the box checked and the same one chat.
    await page.reload();
    await expect(page.getByLabel("Only chats with notes")).toBeChecked();
    await expect(results.getByRole("heading", { name: "Tell me about stripes" })).toBeVisible({ timeout: 20_000 });
    await expect(results.getByRole("heading", { name: "Summarise the quarterly budget" })).toHaveCount(0);
    await expectAccessible(page);
    await page.getByLabel("Only chats with notes").uncheck();
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).not.toHaveURL(/notes=1/);
    await expect(results.getByRole("heading", { name: "Summarise the quarterly budget" })).toBeVisible();
  });

  test("filters, a query from the URL, an id that needs encoding, and a query FTS5 cannot read", async ({ page }) => {
    await page.goto("/search?q=budget");
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Summarise the quarterly budget" })).toBeVisible({
      timeout: 20_000,
    });
    await expect(results.getByRole("link", { name: /^line 2 user / })).toHaveAttribute(
      "href",
      `/chats/${encodeURIComponent("c budget/1")}?line=2`,
    );
    await page.getByLabel("Role").selectOption("assistant");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(results.getByRole("link", { name: /^line 3 assistant / })).toBeVisible();
    await expect(results.getByRole("link", { name: /^line 2 / })).toHaveCount(0);
    await page.getByLabel("From date").fill("2026-11-26");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText('No chat matches "budget".')).toBeVisible();

    await page.getByLabel("Search chats").fill('"unclosed');
    await page.getByRole("button", { name: "Search", exact: true }).click();
    const query = page.getByLabel("Search chats");
    await expect(query).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("#search-query-error")).toContainText('The search "\\"unclosed" cannot be read');
    await expect(query).toHaveAccessibleDescription(/cannot be read/);

    // A query the engine cannot parse names what is wrong, never "No chat matches".
    await query.fill("budget AND (");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.locator("#search-query-error")).toHaveText(
      'The search "budget AND (" cannot be read: a ( is never closed. Use words, "exact phrases", prefix*, AND, OR, NOT and parentheses, for example: deploy NOT "staging server".',
    );
    await expect(page.getByText(/No chat matches/)).toHaveCount(0);

    // A pasted page of text is refused with the length sentence, not sent in an address Node would refuse (431).
    await query.fill("budget ".repeat(3000));
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.locator("#search-query-error")).toHaveText(
      "A search can be at most 1,000 characters long; this one has 20,999. Search for a shorter part of the text.",
    );
    expect(page.url()).not.toContain("budget+budget");
  });

  test("a chat written later is found after Refresh index, in a narrow window", async ({ page, oda }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/search");
    await expect(page.getByText("The search index is up to date (2 chats).")).toBeVisible({ timeout: 20_000 });
    await chatWithTurns(oda.logs, { id: "c-late", cwd: null, created: "2026-11-28T08:00:00.000Z" }, [
      { user: "Where did the okapi go?", assistant: "To the forest.", ts: "2026-11-28T08:01:00.000Z" },
    ]);
    await page.getByRole("button", { name: "Refresh index" }).click();
    await expect(page.getByText("The search index is up to date (3 chats).")).toBeVisible({ timeout: 20_000 });
    await page.getByLabel("Search chats").fill("okap*");
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(
      page.getByRole("list", { name: "Chats that match" }).getByRole("heading", { name: "Where did the okapi go?" }),
    ).toBeVisible();
    await expectAccessible(page);
  });

  test("a search in the URL comes with the page: its results are in the HTML, before any script runs", async ({
    page,
  }) => {
    await page.goto("/search");
    await expect(page.getByText("The search index is up to date (2 chats).")).toBeVisible({ timeout: 20_000 });
    // No script loads: what shows is the server's HTML (the results once waited for the scripts to ask for them).
    await page.route(/\.js(\?|$)/, (route) => route.abort());
    await page.goto("/search?q=zebra");
    const results = page.getByRole("list", { name: "Chats that match" });
    await expect(results.getByRole("heading", { name: "Tell me about stripes" })).toBeVisible();
    await expect(page.getByText("Searching…")).toHaveCount(0);
  });
});
