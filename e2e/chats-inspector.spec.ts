import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compress } from "@mongodb-js/zstd";
import { appendUnfinishedLine, type ChatWriter, createChat, upgradeToFormat4 } from "../test-support/chats/testing";
import { at, closedChat, readReportToolCall } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

test.describe("the inspector, both formats", () => {
  test.use({
    odaSetup: seed(async ({ logs }) => {
      const w = createChat(logs, { id: "c-four", cwd: "/home/ana/reports", created: at(0), continues: "c-one" });
      await w.appendEvents([
        { type: "memory", ts: at(0), mode: "full", text: "## Reply language\nReply in short bullet points." },
      ]);
      await w.appendTurn({
        user: "Summarise the report",
        assistant: "Here is the summary.",
        ts: at(1),
        model: "oda-large-2026-10",
      });
      await w.appendEvents([
        ...readReportToolCall(at(2), "tu-1"),
        { type: "title", ts: at(3), title: "Report summary" },
        { type: "surprise", ts: at(3), detail: { kept: true, "odd key": "n".repeat(300) } },
      ]);
      await w.close();
      await closedChat(logs, "c-one", "/home/ana/reports", 2, { format: 1 });
      await closedChat(logs, "odd/id %41 é", null, 1);
      await closedChat(logs, "c-up", null, 1, { format: 1 });
      await upgradeToFormat4(logs, "c-up");
    }),
  });

  test("shows an older generation beside the current one", async ({ page }) => {
    await page.goto("/chats/c-up");
    await page.getByText("Details, log generations and downloads").click(); // the generations are folded there
    await page.getByRole("link", { name: "View session.jsonl.zstd beside the current one" }).click();
    const current = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    const older = page.getByRole("region", { name: "Lines of session.jsonl.zstd" });
    await expect(current.getByText("Chat started", { exact: false })).toBeVisible();
    await expect(older.getByText("Question 1 of c-up")).toBeVisible();
    await expect(current.getByText("Question 1 of c-up")).toBeVisible();
    await expectAccessible(page);
  });

  test("an id is data: one with a slash, a percent sign and an accent opens from the list", async ({ page }) => {
    await page.goto("/chats");
    await page.getByRole("link", { name: "Question 1 of odd/id %41 é" }).click();
    // the heading is the chat's title (issue 11); the id itself is shown as the chat's Id
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Question 1 of odd/id %41 é");
    await expect(page.getByText("odd/id %41 é", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" })).toContainText(
      "Answer 1 of odd/id %41 é",
    );
    await expect(page.getByText(/^4 lines · \d+ B decompressed$/)).toBeVisible(); // the status route found it too
    const raw = await page.request.get(`/chats/${encodeURIComponent("odd/id %41 é")}/download?form=decompressed`);
    expect(await raw.text()).toContain("Answer 1 of odd/id %41 é");
  });

  test("opens a format 4 chat: header, conversation, folded tool calls, memory, unknown lines", async ({
    page,
    context,
  }) => {
    test.slow(); // three axe checks and the JSON tree on a shared, loaded machine
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/chats/c-four");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Report summary"); // the chat's title
    await expect(page.getByText("v4, zstd-compressed")).toBeVisible();
    await expect(page.getByText("Lock: none")).toBeVisible();
    await page.getByText("Details, log generations and downloads").click();
    await expect(page.getByText(/^cached$/)).toBeVisible();
    await expect(page.getByRole("link", { name: "c-one" })).toHaveAttribute("href", "/chats/c-one");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    await expect(lines.getByText("Summarise the report")).toBeVisible();
    await expect(lines.getByText("oda-large-2026-10")).toBeVisible();
    await expect(lines.getByText("Memory sent (full)", { exact: false })).toBeVisible();
    await expect(lines.getByText("Turn ended", { exact: false })).toBeVisible();
    await expect(lines.getByText("Title:")).toBeVisible();
    await expect(lines.getByText('"kept": true')).toBeVisible();
    const tool = lines.getByText("Tool call: read_file (tu-1)");
    await expect(lines.getByText('"path": "report.md"')).toBeHidden();
    await tool.click();
    await expect(lines.getByText('"path": "report.md"')).toBeVisible();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Raw lines" }).click();
    await expect(page).toHaveURL(/view=raw/);
    await expect(lines.getByRole("link", { name: "Link to line 1", exact: true })).toHaveAttribute(
      "href",
      "/chats/c-four?line=1&view=raw&generation=session.v4.jsonl.zstd",
    );
    await expect(lines.getByText('{"type":"session","format":4,"id":"c-four"', { exact: false })).toBeVisible();
    await lines.getByRole("button", { name: "Format JSON of line 1" }).click();
    await expect(lines.getByText('"cwd": "/home/ana/reports"', { exact: false })).toBeVisible();
    await expectAccessible(page);

    // The raw view of a line as a JSON tree: fold and unfold, copy a value or its path, long strings folded.
    await lines.getByRole("button", { name: "JSON tree of line 9" }).click();
    const tree = lines.getByRole("list", { name: "JSON tree of line 9" });
    const detail = tree.getByRole("button", { name: "detail: {2 keys}" });
    await expect(detail).toHaveAttribute("aria-expanded", "true");
    await expect(tree.getByText("Show all 300 characters")).toBeVisible();
    await expect(tree.getByText("n".repeat(300))).toHaveCount(0);
    await tree.getByText("Show all 300 characters").click();
    await expect(tree.getByText(`"${"n".repeat(300)}"`)).toBeVisible();
    await tree.getByRole("button", { name: "Copy path .detail.kept" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(".detail.kept");
    await tree.getByRole("button", { name: 'Copy path .detail["odd key"]' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('.detail["odd key"]');
    await tree.getByRole("button", { name: "Copy value of .detail", exact: true }).click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({
      kept: true,
      "odd key": "n".repeat(300),
    });
    await detail.click();
    await expect(detail).toHaveAttribute("aria-expanded", "false");
    await expect(tree.getByText("kept:")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("opens a format 1 chat, in a narrow window too", async ({ page }) => {
    test.slow(); // axe and a find on a shared, loaded machine
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/chats/c-one");
    await expect(page.getByText("v1, zstd-compressed")).toBeVisible();
    const lines = page.getByRole("region", { name: "Lines of session.jsonl.zstd" });
    await expect(lines.getByText("Question 1 of c-one")).toBeVisible();
    await expect(lines.getByText("Answer 2 of c-one")).toBeVisible();
    // The log starts on the first screen: its first three lines are in view before any scrolling.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const third = await lines.getByRole("listitem").nth(2).boundingBox();
    expect((third?.y ?? 9999) + (third?.height ?? 0)).toBeLessThanOrEqual(844);
    await expectAccessible(page);
    // Jump and find fold behind one button on a phone.
    await expect(page.getByLabel("Find in this chat")).toBeHidden();
    const tools = page.getByRole("button", { name: "Jump and find" });
    await expect(tools).toHaveAttribute("aria-expanded", "false");
    await tools.click();
    await expect(tools).toHaveAttribute("aria-expanded", "true");
    await page.getByLabel("Find in this chat").fill("Answer 2");
    await page.getByRole("button", { name: "Find next" }).click();
    await expect(page.getByText("“Answer 2” found at line 4.")).toBeVisible();
  });

  test("filters with context: a tool's calls paired with their results, hidden lines counted, the filter in the URL", async ({
    page,
  }) => {
    await page.goto("/chats/c-four?view=raw");
    await page.getByRole("button", { name: "Filter lines" }).click();
    const form = page.getByRole("form", { name: "Filter lines" });
    const tool = form.getByLabel("Tool");
    await expect(tool.getByRole("option", { name: "read_file (1)" })).toBeAttached();
    await tool.selectOption("read_file");
    await form.getByRole("button", { name: "Apply filter" }).click();
    const filtered = page.getByRole("region", { name: "Filtered lines of session.v4.jsonl.zstd" });
    await expect(filtered.getByText("1 matching line.")).toBeVisible();
    // Line 6 is the call, line 7 its result; lines 1-5 and 8-9 are hidden.
    await expect(filtered.getByText("5 lines hidden")).toBeVisible();
    await expect(filtered.getByText("Result of a matching tool call")).toBeVisible();
    await expect(filtered.getByRole("link", { name: "Link to line 7" })).toBeVisible();
    await expect(filtered.getByText("2 lines hidden")).toBeVisible();
    await expect(filtered.getByRole("link", { name: "Link to line 5" })).toHaveCount(0);
    await expect(page).toHaveURL(/tool=read_file/);
    await expectAccessible(page);

    await form.getByLabel("Context").selectOption("2");
    await form.getByRole("button", { name: "Apply filter" }).click();
    await expect(page).toHaveURL(/context=2/);
    await expect(filtered.getByText("3 lines hidden")).toBeVisible();
    for (const n of [4, 5, 6, 7, 8, 9])
      await expect(filtered.getByRole("link", { name: `Link to line ${n}` })).toBeVisible();
    await expect(filtered.getByText("Context")).toHaveCount(4);

    // The filter is in the address: a reload keeps it; a line's number opens it in the whole log.
    await page.reload();
    await expect(filtered.getByText("3 lines hidden")).toBeVisible();
    await filtered.getByRole("link", { name: "Link to line 6" }).click();
    await expect(filtered).toBeHidden();
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    await expect(lines.locator('[aria-current="true"]')).toContainText("tool_use");

    // The chat's token counts link to the lines they come from.
    await page.getByText("Details, log generations and downloads").click();
    await page.getByRole("link", { name: /\d+ in \/ \d+ out ?: the lines they come from/ }).click();
    await expect(page).toHaveURL(/usage=1/);
    await expect(filtered.getByText("1 matching line.")).toBeVisible();
    await expect(filtered.getByText('"usage"', { exact: false })).toBeVisible();
  });

  test("exports: the menu downloads one HTML file that reads with no network and no script, light and dark; md redacted", async ({
    page,
    browser,
  }) => {
    await page.goto("/chats/c-four");
    await page.getByText("Export", { exact: true }).click();
    const menu = page.getByRole("form", { name: "Export this chat" });
    await menu.getByLabel("Form").selectOption("html");
    const downloading = page.waitForEvent("download");
    await menu.getByRole("button", { name: "Download" }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe("c-four.html");
    const file = test.info().outputPath("c-four.html");
    await download.saveAs(file);

    const offline = await browser.newContext({ offline: true, javaScriptEnabled: false });
    const reader = await offline.newPage();
    const fetched: string[] = [];
    await reader.route("**/*", (route) => {
      if (route.request().url().startsWith("file:")) return route.continue();
      fetched.push(route.request().url());
      return route.abort();
    });
    await reader.goto(`file://${file}`);
    await expect(reader.getByRole("heading", { level: 1 })).toHaveText("Chat c-four");
    await expect(reader.getByText("Summarise the report")).toBeVisible();
    await expect(reader.getByText('"path": "report.md"')).toBeHidden();
    await reader.getByText("Tool call: read_file (tu-1)").click();
    await expect(reader.getByText('"path": "report.md"')).toBeVisible();
    const background = () => reader.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await reader.emulateMedia({ colorScheme: "light" });
    expect(await background()).toBe("rgb(255, 255, 255)");
    await reader.emulateMedia({ colorScheme: "dark" });
    expect(await background()).toBe("rgb(24, 24, 27)");
    expect(fetched).toEqual([]);
    await offline.close();

    const md = await page.request.get("/chats/c-four/export?format=md&redact=1");
    expect(md.headers()["content-disposition"]).toBe('attachment; filename="c-four-redacted.md"');
    const text = await md.text();
    expect(text).toContain("working folder /home/user-1/reports");
    expect(text).not.toContain("/home/ana");
    expect(text).toContain("<summary>Tool call: read_file (tu-1)</summary>");
  });

  test("marks and notes: m marks a line, a note is added; both survive an append and are reported lost when the line changed", async ({
    page,
    oda,
  }) => {
    test.slow(); // two reloads and axe on a shared, loaded machine
    const log = join(oda.logs, "--%2Fhome%2Fana%2Freports--", "c-one", "session.jsonl.zstd");
    await page.goto("/chats/c-one?line=2&view=raw");
    const lines = page.getByRole("region", { name: "Lines of session.jsonl.zstd" });
    await expect(lines.locator('[aria-current="true"]')).toContainText("Answer 1 of c-one");
    await page.keyboard.press("m");
    await expect(page.getByText("Line 2 marked.")).toBeVisible();
    await expect(lines.locator('[aria-current="true"]')).toContainText("Marked line.");
    await page.getByText("Notes and marks (1)").click();
    await page.getByLabel("Note on line 2").fill("the answer to check");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Note added to line 2.")).toBeVisible();
    const notes = page.getByRole("list", { name: "Notes of this chat" });
    await expect(notes.getByRole("listitem")).toHaveCount(2);
    await expect(notes).toContainText("the answer to check");
    // A note on a range: listed with its range, linked to its first line.
    await page.getByLabel("To line (for a range)").fill("3");
    await page.getByLabel("Note on line 2").fill("the whole exchange");
    await page.getByRole("button", { name: "Add note" }).click();
    await expect(page.getByText("Note added to lines 2–3.")).toBeVisible();
    await expect(notes.getByRole("listitem")).toHaveCount(3);
    await expect(notes.getByRole("link", { name: "Lines 2–3" })).toHaveAttribute("href", /line=2/);
    await expectAccessible(page);

    // The chat list marks the chat, with its count of notes.
    await page.goto("/chats");
    await expect(page.getByRole("row").filter({ hasText: "c-one" }).getByTestId("notes-marker")).toContainText(
      "3 notes",
    );
    await page.goto("/chats/c-one?line=2&view=raw");

    // Oda appends a save: the marks stay on their line.
    const more = `${JSON.stringify({ time: at(9), role: "user", text: "Question 3 of c-one" })}\n`;
    appendFileSync(log, await compress(Buffer.from(more), 3));
    await page.reload();
    await page.getByText("Notes and marks (3)").click();
    await expect(notes.getByRole("listitem").filter({ hasText: "kept" })).toHaveCount(3);
    await expect(lines.getByText("Question 3 of c-one")).toBeVisible();

    // The log rewritten with line 2 changed: its mark and note are lost, not moved.
    const text = execFileSync("zstd", ["-dc", log], { encoding: "utf8" }).replace("Answer 1 of c-one", "Changed");
    writeFileSync(log, await compress(Buffer.from(text), 3));
    await page.reload();
    await page.getByText("Notes and marks (3, 3 lost)").click();
    await expect(notes.getByText("lost: the line changed since")).toHaveCount(2);
    await expect(notes.getByText("lost: a line of the range changed since")).toHaveCount(1);
  });

  test("downloads the decompressed log and the raw file", async ({ page, oda }) => {
    const file = join(oda.logs, "--%2Fhome%2Fana%2Freports--", "c-one", "session.jsonl.zstd");
    const raw = await page.request.get("/chats/c-one/download?form=raw");
    expect(raw.headers()["content-disposition"]).toBe('attachment; filename="c-one-session.jsonl.zstd"');
    expect(Buffer.from(await raw.body()).equals(readFileSync(file))).toBe(true);
    const text = await page.request.get("/chats/c-one/download?form=decompressed");
    expect(text.headers()["content-disposition"]).toBe('attachment; filename="c-one-session.jsonl"');
    const body = (await text.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(body.map((l) => l.text)).toEqual([
      "Question 1 of c-one",
      "Answer 1 of c-one",
      "Question 2 of c-one",
      "Answer 2 of c-one",
    ]);
  });

  test("a raw download sends its length, and one cut short by a truncation fails instead of ending cleanly", async ({
    oda,
  }) => {
    // Issue 24: Next dropped Content-Length, and a log truncated while sent ended the chunked body cleanly.
    const dir = join(oda.logs, "_no-cwd", "c-cut");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "session.jsonl.zstd");
    const size = 48 * 1024 * 1024;
    writeFileSync(file, randomBytes(size));
    const res = await fetch(`${oda.baseURL}/chats/c-cut/download?form=raw`, {
      headers: { authorization: `Bearer ${oda.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(size));
    expect(res.headers.get("transfer-encoding")).toBeNull();
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    let got = ((await reader.read()).value as Uint8Array).length;
    truncateSync(file, 4 * 1024 * 1024); // the client has read little; the server reads ahead only so far
    const end = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return "ended cleanly";
        got += value.length;
      }
    })();
    await expect(end).rejects.toThrow();
    expect(got).toBeLessThan(size);
  });
});

test.describe("broken lines and the unfinished tail", () => {
  const offsets = { invalid: 0, tail: 0 };
  test.use({
    odaSetup: seed(async ({ home, logs }) => {
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, "settings.json"), JSON.stringify({ sessions: { compress: false } }));
      const w: ChatWriter = createChat(logs, { id: "c-plain", cwd: null, created: at(0) }, { compress: false });
      await w.appendTurn({ user: "first", assistant: "one", ts: at(1) });
      offsets.invalid = statSync(w.logPath).size;
      await w.writeSave(await w.encodeSave(["this line is not JSON"]), null); // a broken line, by hand
      await w.appendTurn({ user: "second", assistant: "two", ts: at(2) });
      offsets.tail = statSync(w.logPath).size;
      await appendUnfinishedLine(w, { type: "message", ts: at(3), role: "user", content: [] });
      w.releaseLock();
    }),
  });

  test("marks the invalid line and the unfinished tail at their offsets; next error jumps to it", async ({
    page,
    oda,
  }) => {
    await page.goto("/chats/c-plain?view=raw");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl" });
    await expect(
      lines.getByText(
        `Invalid line: Line 5 is not a JSON object. (byte offset ${offsets.invalid.toLocaleString("en")})`,
      ),
    ).toBeVisible();
    await expect(lines.getByText(`Unfinished tail at byte ${offsets.tail.toLocaleString("en")}`)).toBeVisible();
    const log = join(oda.logs, "_no-cwd", "c-plain", "session.v4.jsonl");
    await expect(lines).toContainText(`The log ends with an unfinished line at byte ${offsets.tail}`);
    await expect(lines).toContainText(`raw log: ${log}`);
    await page.getByRole("button", { name: "Next error" }).click();
    await expect(page.getByText(`Invalid line 5 at byte ${offsets.invalid.toLocaleString("en")}.`)).toBeVisible();
    await expect(page).toHaveURL(/line=5/);
    await expect(lines.locator('[aria-current="true"]')).toContainText("this line is not JSON");
    await expect(page.getByRole("list", { name: "Problems of this chat" })).toContainText(
      "Line 5 of the log is not a JSON object.",
    );
    await expectAccessible(page);
  });

  test("keyboard: ? lists the shortcuts; e/E, [/], j/k, n/N, g/G and c move through the log; g c and the list's j/Enter", async ({
    page,
    context,
  }) => {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto("/chats/c-plain?view=raw");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl" });
    const selected = lines.locator('[aria-current="true"]');
    await expect(lines.getByText("this line is not JSON")).toBeVisible();

    await page.keyboard.press("?");
    const help = page.getByRole("dialog", { name: "Keyboard shortcuts" });
    await expect(help.getByRole("region", { name: "Everywhere" })).toContainText("Go to Chats");
    await expect(help.getByRole("region", { name: "Log viewer" })).toContainText("Next problem line");
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(help).toBeHidden();

    await page.keyboard.press("e");
    await expect(page.getByText("Problem line 5.")).toBeVisible();
    await expect(page).toHaveURL(/line=5/);
    await expect(selected).toContainText("this line is not JSON");
    await page.keyboard.press("E");
    await expect(page.getByText("No problem line before line 5.")).toBeVisible();
    await page.keyboard.press("]");
    await expect(page.getByText("User message at line 6.")).toBeVisible();
    await expect(selected).toContainText('"second"');
    await page.keyboard.press("[");
    await expect(page.getByText("User message at line 2.")).toBeVisible();
    await page.keyboard.press("j");
    await expect(page).toHaveURL(/line=3/);
    await page.keyboard.press("k");
    await expect(page).toHaveURL(/line=2/);

    // `/` goes to the find field, and what is typed there is text: the "e" of "second" finds no problem line.
    await page.keyboard.press("/");
    const find = page.getByRole("searchbox", { name: "Find in this chat" });
    await expect(find).toBeFocused();
    await page.keyboard.type("second");
    await expect(page).toHaveURL(/line=2/);
    await page.keyboard.press("Enter");
    await expect(page.getByText("“second” found at line 6.")).toBeVisible();
    await lines.focus();
    await page.keyboard.press("N");
    await expect(page.getByText("“second” is not in any line before line 6.")).toBeVisible();

    await page.keyboard.press("G");
    await expect(page).toHaveURL(/line=8/);
    await page.keyboard.press("c");
    await expect(page.getByText("Link to line 8 copied.")).toBeVisible();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(new URL(link).pathname).toBe("/chats/c-plain");
    expect(new URL(link).searchParams.get("line")).toBe("8");
    await page.keyboard.press("g");
    await expect(page).toHaveURL(/line=1/);

    // `g` then `c` is the sequence "go to Chats", not "top" then "copy".
    await page.keyboard.press("c");
    await expect(page).toHaveURL(/\/chats$/);
    const table = page.getByRole("table", { name: "Chats" });
    await expect(table.getByRole("link", { name: "first" })).toBeVisible();
    await page.keyboard.press("j");
    await expect(table.locator('[aria-current="true"]')).toContainText("c-plain");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/chats\/c-plain$/);
  });
});

test.describe("activity at a glance", () => {
  const utc = (hm: string) => `2026-11-29T${hm}.000Z`;
  const say = (ts: string, role: string, text: string, extra: Record<string, unknown> = {}) => ({
    type: "message",
    ts,
    role,
    content: [{ type: "text", text }],
    ...extra,
  });
  test.use({
    // Lines 2–10 between 10:00 and 13:00 UTC: 37 intervals of 5 minutes; a tool error at 11:00.
    odaSetup: seed(async ({ logs }) => {
      const w = createChat(logs, { id: "c-act", cwd: null, created: utc("10:00:00") });
      await w.appendEvents([
        say(utc("10:00:00"), "user", "Morning question"), // 2
        say(utc("10:00:30"), "assistant", "Morning answer", { usage: { input_tokens: 100, output_tokens: 20 } }), // 3
        say(utc("11:00:00"), "user", "Noon question"), // 4
        {
          type: "message",
          ts: utc("11:00:10"),
          role: "assistant",
          content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.md" } }],
        }, // 5
        {
          type: "message",
          ts: utc("11:00:20"),
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "t1", content: "no such file", is_error: true }],
        }, // 6
        say(utc("11:00:40"), "assistant", "Noon answer", { usage: { input_tokens: 50, output_tokens: 5 } }), // 7
        say(utc("12:30:00"), "user", "Afternoon question"), // 8
        say(utc("12:30:10"), "assistant", "Afternoon answer", { usage: { input_tokens: 10, output_tokens: 1 } }), // 9
        say(utc("13:00:00"), "user", "Last question"), // 10
      ]);
      await w.close();
    }),
  });

  test("the strip: click jumps, drag filters (in the URL, hidden lines counted), keys and the table, axe clean", async ({
    page,
  }) => {
    test.slow(); // axe twice on a shared machine
    await page.goto("/chats/c-act?view=raw");
    const strip = page.getByRole("figure", { name: /^Activity over time/ });
    await expect(strip).toContainText("9 messages and 186 tokens");
    await expect(strip).toContainText("in intervals of 5 minutes; 1 problem line.");
    const slider = strip.getByRole("slider");
    await expect(slider).toHaveAttribute("aria-valuemax", "37");
    const lines = page.getByRole("region", { name: "Lines of session.v4.jsonl.zstd" });
    const current = lines.locator('[aria-current="true"]');
    await expectAccessible(page);

    // The centre of interval i (0-based) of 37, where the strip is now (a jump scrolls the page).
    const at = async (i: number) => {
      await slider.scrollIntoViewIfNeeded();
      const box = await slider.boundingBox();
      if (!box) throw new Error("the strip has no box");
      return [box.x + ((i + 0.5) / 37) * box.width, box.y + box.height / 2] as const;
    };

    // A click on 12:30 (interval 30) jumps to its first line.
    await page.mouse.click(...(await at(30)));
    await expect(current).toContainText("Afternoon question");
    await expect(page).toHaveURL(/line=8/);

    // A drag from 11:00 (12) to 12:30 (30) filters the log to 11:00–12:35: lines 4 to 9.
    const [x12, y] = await at(12);
    const [x30] = await at(30);
    await page.mouse.move(x12, y);
    await page.mouse.down();
    await page.mouse.move((x12 + x30) / 2, y, { steps: 4 });
    await page.mouse.move(x30, y, { steps: 4 });
    await page.mouse.up();
    await expect(page).toHaveURL(/after=2026-11-29T11%3A00%3A00\.000Z/);
    await expect(page).toHaveURL(/before=2026-11-29T12%3A35%3A00\.000Z/);
    const filtered = page.getByRole("region", { name: "Filtered lines of session.v4.jsonl.zstd" });
    await expect(filtered.getByText("6 matching lines.")).toBeVisible();
    await expect(filtered.getByText("3 lines hidden")).toBeVisible();
    await expect(filtered.getByText("1 line hidden", { exact: true })).toBeVisible();
    for (const n of [4, 5, 6, 7, 8, 9])
      await expect(filtered.getByRole("link", { name: `Link to line ${n}` })).toBeVisible();
    await expect(filtered.getByRole("link", { name: "Link to line 10" })).toHaveCount(0);
    // The range stays through a reload, and with another filter on top.
    await page.reload();
    await expect(filtered.getByText("6 matching lines.")).toBeVisible();
    const form = page.getByRole("form", { name: "Filter lines" });
    await form.getByLabel("Role").selectOption("user");
    await form.getByRole("button", { name: "Apply filter" }).click();
    await expect(page).toHaveURL(/role=user/);
    await expect(page).toHaveURL(/after=/);
    await expect(filtered.getByText("3 matching lines.")).toBeVisible();
    await page.getByRole("button", { name: "Clear time range" }).click();
    await expect(page).not.toHaveURL(/after=/);
    await expect(filtered.getByText("5 matching lines.")).toBeVisible();
    await form.getByRole("button", { name: "Show all lines" }).click();
    await expect(filtered).toBeHidden();

    // Keys: Home and Enter jump to the first interval's line, End and Enter to the last's;
    // Shift+arrows select intervals and Enter filters to them.
    await slider.focus();
    await page.keyboard.press("Home");
    await expect(slider).toHaveAttribute("aria-valuenow", "1");
    await expect(slider).toHaveAttribute("aria-valuetext", /: 2 messages, 120 tokens$/);
    await page.keyboard.press("Enter");
    await expect(current).toContainText("Morning question");
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    await expect(current).toContainText("Last question");
    for (let i = 0; i < 24; i++) await page.keyboard.press("ArrowLeft");
    await expect(slider).toHaveAttribute("aria-valuenow", "13");
    await expect(slider).toHaveAttribute("aria-valuetext", /: 4 messages, 55 tokens, 1 problem line$/);
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/after=2026-11-29T11%3A00%3A00\.000Z/);
    await expect(page).toHaveURL(/before=2026-11-29T11%3A10%3A00\.000Z/);
    await expect(filtered.getByText("4 matching lines.")).toBeVisible();

    // The text alternative: the intervals with lines in a table, each with a way to its first line.
    await page.getByRole("button", { name: "Clear time range" }).click();
    await page.getByText("Activity as a table").click();
    const table = strip.getByRole("table", { name: /^Activity per interval of 5 minutes/ });
    await expect(table.locator("tbody tr")).toHaveCount(4); // 10:00, 11:00, 12:30 and 13:00
    await expect(table.locator("tbody tr").nth(1).locator("td")).toHaveText(["4", "55", "1", "Go to line 4"]);
    await table.getByRole("button", { name: "Go to line 4" }).click();
    await expect(current).toContainText("Noon question");
    await expectAccessible(page);
  });
});
