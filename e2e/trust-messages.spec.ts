import { type ChatWriter, createChat } from "../test-support/chats/testing";
import { appendUnfinishedLine, at, readReportToolCall } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

// A loaded machine (load 30 on 2 cores) lists and decodes slowly: wait for states, with room to get there.
test.describe.configure({ timeout: 180_000 });

/** Issue 11, item 15: the chat's title, messages as sanitised Markdown, tool calls with their results, tail bytes. */

const MARKDOWN = [
  "Here is the **summary** of the report:",
  "",
  "| Quarter | Revenue |",
  "| --- | --- |",
  "| Q1 | 120 |",
  "| Q2 | 140 |",
  "",
  "- first point",
  "- second point",
  "",
  "```",
  "const total = 260;",
  "```",
  "",
  '<b class="raw-html">not bold</b> <img src="x" onerror="document.title=\'pwned\'"> [a link](javascript:alert(1))',
].join("\n");

test.describe("a chat with a title, Markdown, a tool call and an unfinished tail", () => {
  test.use({
    odaSetup: seed(async ({ home, logs }) => {
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const { join } = await import("node:path");
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, "settings.json"), JSON.stringify({ sessions: { compress: false } }));
      const w: ChatWriter = createChat(
        logs,
        { id: "c-md", cwd: "/home/ana/reports", created: at(0) },
        { compress: false },
      );
      await w.appendEvents([
        { type: "message", ts: at(1), role: "user", content: [{ type: "text", text: "Summarise the report" }] },
        { type: "message", ts: at(1), role: "assistant", content: [{ type: "text", text: MARKDOWN }] },
        ...readReportToolCall(at(2), "tu-7"),
        { type: "title", ts: at(3), title: "Quarterly report summary" },
      ]);
      await appendUnfinishedLine(w, { type: "message", ts: at(4), role: "user", content: "cut short by a crash" }, 40);
    }),
  });

  test("the heading and the tab carry the chat's title", async ({ page }) => {
    await page.goto("/chats/c-md");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quarterly report summary");
    await expect(page).toHaveTitle("Quarterly report summary · Oda Admin");
    await expect(page.getByText("c-md", { exact: true }).first()).toBeVisible(); // the id stays on screen
  });

  test("messages render as Markdown, with raw HTML and script links left out", async ({ page }) => {
    await page.goto("/chats/c-md");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl" });
    const table = lines.getByRole("table");
    await expect(table.getByRole("columnheader", { name: "Revenue" })).toBeVisible();
    await expect(table.getByRole("cell", { name: "140" })).toBeVisible();
    await expect(lines.locator("strong", { hasText: "summary" })).toBeVisible();
    await expect(lines.locator("li", { hasText: "second point" })).toBeVisible();
    await expect(lines.locator("pre code", { hasText: "const total = 260;" })).toBeVisible();
    await expect(lines.locator("b.raw-html")).toHaveCount(0);
    await expect(lines.locator("img")).toHaveCount(0);
    await expect(lines.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(page).toHaveTitle("Quarterly report summary · Oda Admin");
    await expectAccessible(page);
  });

  test("a tool call shows its result, and the result names its call", async ({ page }) => {
    await page.goto("/chats/c-md");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl" });
    await lines.getByText("Tool call: read_file (tu-7)").click();
    const call = lines.locator("details", { hasText: "Tool call: read_file (tu-7)" });
    await expect(call.getByText('"path": "report.md"')).toBeVisible();
    await expect(call.getByText("The whole report text")).toBeVisible();
    await expect(call.getByRole("link", { name: "line 5" })).toHaveAttribute("href", /line=5/);
    await lines.getByText("Tool result for tu-7 · read_file").click();
    const result = lines.locator("details", { hasText: "Tool result for tu-7" });
    await expect(result.getByText("Answers the call read_file on")).toBeVisible();
    await expect(result.getByRole("link", { name: "line 4" })).toHaveAttribute("href", /line=4/);
  });

  test("the unfinished tail shows its bytes in hex and as text", async ({ page }) => {
    await page.goto("/chats/c-md?view=raw");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl" });
    await expect(lines.getByText(/^Unfinished tail at byte [\d,]+$/)).toBeVisible();
    await lines.getByText("Its 40 bytes, in hex and as text").click();
    await expect(
      lines.getByText("00000000  7b 22 74 79 70 65 22 3a 22 6d 65 73 73 61 67 65", { exact: false }),
    ).toBeVisible();
    await expect(lines.getByText('{"type":"message","ts":"2026-11-29T18:04', { exact: true })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("in the dark scheme", () => {
  test.use({
    colorScheme: "dark",
    odaSetup: seed(async ({ logs }) => {
      const w = createChat(logs, { id: "c-dark", cwd: null, created: at(0) });
      await w.appendEvents([
        { type: "message", ts: at(1), role: "assistant", content: [{ type: "text", text: MARKDOWN }] },
        { type: "title", ts: at(2), title: "Dark report" },
      ]);
      await w.close();
    }),
  });

  test("Markdown and the folded details stay accessible", async ({ page }) => {
    await page.goto("/chats/c-dark");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dark report");
    await expect(page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" }).getByRole("table")).toBeVisible();
    await page.getByText("Details, log generations and downloads").click();
    await expectAccessible(page);
  });
});
