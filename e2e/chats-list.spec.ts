import { join } from "node:path";
import { sortAndFilterNine } from "./chat-list-checks";
import { problemFolder } from "./chats-setup";
import { expect, expectAccessible, seed, test } from "./fixtures";

test.describe("the chat list", () => {
  let made: Awaited<ReturnType<typeof problemFolder>>;
  test.use({
    odaSetup: seed(async ({ logs }) => {
      made = await problemFolder(logs);
    }),
  });

  test("shows every chat with cached labels and every problem kind, with raw log paths", async ({ page, oda }) => {
    test.slow(); // three axe runs and a doctor run on a shared, loaded machine
    await page.goto("/chats");
    const table = page.getByRole("table", { name: "Chats" });
    // The list is read from the folder after the page loads (no index yet): give a loaded machine its time.
    await expect(page.getByText(/Showing 9 of 9 chats; \d+ with problems\./)).toBeVisible({ timeout: 30_000 });
    const row = (id: string) => table.getByRole("row").filter({ hasText: id });

    await expect(row("c-cached").getByText("cached", { exact: true })).toBeVisible();
    await expect(row("c-behind").getByText(/^cached · \d+ B behind the log$/)).toBeVisible();
    await expect(row("c-rebuilt").getByText(/cached/)).toHaveCount(0);
    await expect(row("c-old").getByRole("cell", { name: "v4 zstd" })).toBeVisible();
    await expect(table.getByRole("row").filter({ hasText: "_no-cwd (no working folder)" })).toBeVisible();

    const folderProblems = page.getByRole("list", { name: "Problems in the log folder" });
    const a = join(oda.logs, "--%2Fsrv%2Fa--", "c-dup");
    const b = join(oda.logs, "--%2Fsrv%2Fb--", "c-dup");
    await expect(folderProblems).toContainText(`Chat "c-dup" is stored in two places: ${a} and ${b}.`);
    await expect(folderProblems).toContainText(`raw log: ${join(a, "session.v4.jsonl.zstd")}`);
    await expect(folderProblems).toContainText(`raw log: ${join(b, "session.v4.jsonl.zstd")}`);

    const v5 = join(made.form.dir, "session.v5.jsonl");
    await expect(row("c-form")).toContainText(`${v5} is plain but this log folder keeps zstd-compressed logs.`);
    await expect(row("c-form")).toContainText(`raw log: ${v5}`);
    await expect(row("c-badcache")).toContainText("The checkpoint cannot be read: not JSON");
    await expect(row("c-badcache")).toContainText(`raw log: ${join(made.badCache.dir, "session.cache.json")}`);
    await expect(row("c-mismatch")).toContainText(
      'The checkpoint does not match the log and was discarded: The checkpoint\'s cwd "/somewhere/else" does not match the chat\'s "/srv/a".',
    );
    await expect(row("c-mismatch")).toContainText(`raw log: ${join(made.mismatch.dir, "session.cache.json")}`);
    // The moment in a problem's sentence is shown as every moment of the pages is (the ISO time on hover).
    const started = row("c-stale").locator(`time[datetime="${made.holder.startedAt}"]`);
    await expect(started).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}:\d{2}\s[AP]M \S+$/);
    await expect(row("c-stale")).toContainText(
      `The session.lock is stale (held by process ${made.holder.pid} on ${made.holder.host}, started ${await started.textContent()}): Process ${made.holder.pid} is no longer running. Oda cannot write this chat until the lock file is removed.`,
    );
    await expect(row("c-stale")).not.toContainText(made.holder.startedAt);
    await expect(row("c-stale")).toContainText(`raw log: ${join(made.stale.dir, "session.lock")}`);
    await expect(row("c-stale").getByText("stale lock", { exact: true })).toBeVisible();
    await expect(row("c-cut")).toContainText("The log's last zstd frame is cut off at byte");
    await expect(row("c-cut")).toContainText(`raw log: ${made.cut.logPath}`);
    await expectAccessible(page);

    // The Doctor report has its place in the navigation and on Home, names folders decoded and links each
    // problem to its chat, and to Repairs where a repair is offered.
    await page.goto("/");
    await page.getByRole("main").getByRole("link", { name: "Doctor report" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Doctor report" })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Doctor" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    // The report streams in from /api/doctor; once every log is read the page says what it found and read.
    await expect(page.getByRole("status").filter({ hasText: /^\d+ problems found\.$/ })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByRole("heading", { level: 2, name: /^Chat logs \(\d+ problems\)$/ })).toBeVisible();
    const logs = page.getByRole("list", { name: "Problems: chat logs" });
    const form = logs.getByRole("listitem", { name: "/srv/a › chat c-form › session.v5.jsonl" });
    await expect(form).toContainText("is plain but this log folder keeps zstd-compressed logs.");
    await expect(form.getByRole("link", { name: "Open chat c-form" })).toHaveAttribute("href", "/chats/c-form");
    await expect(form.getByRole("link", { name: "Repair chat c-form" })).toHaveAttribute("href", "/repairs");
    const stale = logs.getByRole("listitem", { name: "/srv/a › chat c-stale › session.lock" });
    await expect(stale.getByRole("link", { name: "Open chat c-stale" })).toBeVisible();
    await expect(stale.locator(`time[datetime="${made.holder.startedAt}"]`)).toBeVisible();
    // the place is named decoded; the sentence keeps the raw path on disk, as the CLI prints it
    await expect(form.locator("p").first()).toHaveText("/srv/a › chat c-form › session.v5.jsonl");
    await expect(form.locator("p").first()).toHaveAttribute("title", "--%2Fsrv%2Fa--/c-form/session.v5.jsonl");
    await expectAccessible(page);
    await form.getByRole("link", { name: "Open chat c-form" }).click();
    await expect(page).toHaveURL("/chats/c-form");
  });

  test("sorts by a column and filters by lock, problems, format, working folder and id", async ({ page }) => {
    test.slow(); // folder listings, a 404 page and axe on a shared, loaded machine
    await sortAndFilterNine(page);
  });

  test("the list streams in batches with a progress count", async ({ page }) => {
    const res = await page.request.get("/api/chats?batch=4");
    expect(res.ok()).toBe(true);
    const batches = (await res.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(batches.map((b) => [b.rows.length, b.done, b.total])).toEqual([
      [4, 4, 9],
      [4, 8, 9],
      [1, 9, 9],
    ]);
    expect(batches[0].problems.map((p: { kind: string }) => p.kind)).toEqual(["duplicate"]);
    expect(batches[1].problems).toEqual([]);
  });
});
