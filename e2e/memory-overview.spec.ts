import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createMemory, setEnabled, tokenBudgets, writeSettings } from "../lib/memory";
import { expect, expectAccessible, seed, test } from "./fixtures";

test.describe("the memory overview", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await writeSettings(home, { chatMaxTokens: 500 });
      await createMemory(home, null, { title: "Reply language", text: "Reply in short bullet points." });
      const off = await createMemory(home, null, { title: "Old habit", text: "Sign every reply with a haiku." });
      await setEnabled(home, null, off.memory?.id as string, false);
      await createMemory(
        home,
        "reports",
        { title: "Chart colours", text: "Use the blue palette for every chart." },
        { source: "chat", sessionId: "c-1" },
      );
      await createMemory(home, "notes", { title: "Note style", text: "Keep notes under a page." });
      // a hand-written broken file: the test is about it
      await mkdir(join(home, "memory", "workspaces", "reports"), { recursive: true });
      await writeFile(join(home, "memory", "workspaces", "reports", "0000000b"), "title: no block\n");
      // a setting out of range, written by hand: the test is about it
      await writeFile(join(home, "settings.json"), JSON.stringify({ memory: { chatMaxTokens: 500, versionsKept: 1 } }));
    }),
  });

  test("counts every set, draws each chat's budget, and shows settings problems", async ({ page, oda }) => {
    await page.goto("/memory");
    await expect(page.getByRole("heading", { level: 1, name: "Memory" })).toBeVisible();
    const table = page.getByRole("table");
    const row = (name: string) => table.getByRole("row").filter({ has: page.getByRole("link", { name }) });
    // Set, memories, on, problems; global first, then workspaces in order.
    await expect(table.getByRole("row").nth(1)).toContainText("Global memories");
    await expect(row("Global memories").getByRole("cell")).toHaveText(["2", "1", "0"]);
    await expect(row("Workspace notes").getByRole("cell")).toHaveText(["1", "1", "0"]);
    await expect(row("Workspace reports").getByRole("cell")).toHaveText(["1", "1", "1"]);
    await expect(row("Workspace reports").getByRole("link")).toHaveAttribute("href", "/memory/workspaces/reports");

    const budgets = await tokenBudgets(oda.home);
    expect(budgets.map((b) => b.workspace)).toEqual([null, "notes", "reports"]);
    for (const b of budgets) {
      const where = b.workspace === null ? "no workspace" : `workspace ${b.workspace}`;
      const name =
        b.workspace === null
          ? `A chat in ${where}: ${b.tokens} of 500 tokens (global memories only).`
          : `A chat in ${where}: ${b.tokens} of 500 tokens: ${b.globalTokens} global, ${b.workspaceTokens} from the workspace.`;
      await expect(page.getByRole("img", { name })).toBeVisible();
    }

    await expect(page.getByRole("region", { name: "Settings problems" })).toContainText(
      "memory.versionsKept must be a whole number from 2 to 100; 1 is not. The default 10 is used.",
    );
    await expectAccessible(page);
  });

  test("search across titles and texts, with the / key and the filters", async ({ page }) => {
    await page.goto("/memory");
    await expect(page.getByRole("table")).toBeVisible();
    await page.keyboard.press("/");
    const search = page.getByRole("searchbox", { name: /Search titles and texts/ });
    await expect(search).toBeFocused();
    const results = page.getByRole("list", { name: "Search results" });

    await search.fill("reply");
    await expect(page.getByRole("status").filter({ hasText: "results" })).toHaveText("2 results");
    await expect(results.getByRole("link")).toHaveText(["Reply language", "Old habit"]);

    await page.getByLabel("State").selectOption("off");
    await expect(results.getByRole("link")).toHaveText(["Old habit"]);
    await page.getByLabel("State").selectOption("any");

    await search.fill("");
    await page.getByLabel("Source").selectOption("ai");
    await expect(results.getByRole("link")).toHaveText(["Chart colours"]);
    await expect(results).toContainText("saved by the agent");
    await page.getByLabel("Source").selectOption("any");

    await page.getByLabel("Has problems").check();
    await expect(results.getByRole("link")).toHaveText(["memory/workspaces/reports/0000000b"]);
    await expect(results).toContainText("The file does not start with a --- frontmatter block.");
    await page.getByLabel("Has problems").uncheck();

    await search.fill("palette");
    await expect(results.getByRole("link")).toHaveText(["Chart colours"]);
    await expectAccessible(page);
    await results.getByRole("link", { name: "Chart colours" }).click();
    await expect(page).toHaveURL(/\/memory\/workspaces\/reports\/[0-9a-f]{8}$/);
    await expect(page.getByLabel("Text", { exact: true })).toHaveValue("Use the blue palette for every chart.");
  });
});

test.describe("memory health and bulk changes", () => {
  const raw = (home: string, ws: string | null, id: string) =>
    readFile(join(home, "memory", ...(ws === null ? ["global"] : ["workspaces", ws]), id), "utf8");
  test.use({
    odaSetup: seed(async ({ home }) => {
      await createMemory(
        home,
        null,
        { title: "Reply language", text: "Reply in short bullet points." },
        { id: "0000a001" },
      );
      await createMemory(
        home,
        "reports",
        { title: "Replies", text: "reply in **short** bullet points." },
        { id: "0000d001" },
      );
      await createMemory(
        home,
        "reports",
        { title: "Chart colours", text: "Use the blue palette." },
        { id: "0000c001" },
      );
      await createMemory(
        home,
        "reports",
        { title: "chart colours", text: "Use the green palette." },
        { id: "0000c002" },
      );
    }),
  });

  test("lists findings, shows a change before making it, and one Undo puts a bulk change back", async ({
    page,
    oda,
  }) => {
    test.setTimeout(180_000); // four pages, each with an axe check
    await page.goto("/memory");
    await page.getByRole("link", { name: "Check memory health" }).click();
    await expect(page).toHaveURL("/memory/health");
    await expect(page.getByText("2 findings in 4 memories.")).toBeVisible();
    const dup = page.getByRole("listitem", { name: "Exact duplicates 1: Reply language" });
    await expect(dup.getByRole("link", { name: "Replies" })).toHaveAttribute(
      "href",
      "/memory/workspaces/reports/0000d001",
    );
    await expect(page.getByRole("listitem", { name: /^Conflicts: the same title, different texts 1/ })).toContainText(
      "“Chart colours” has different texts in one chat.",
    );
    await expectAccessible(page);

    // the change is shown first; nothing is written until it is confirmed
    await dup.getByRole("button", { name: "Turn off the duplicates" }).click();
    const dialog = page.getByRole("dialog", { name: "Turn off the duplicates" });
    await expect(dialog).toContainText("Keeps “Reply language” (Global) as it is.");
    await expect(dialog).toContainText("“Replies” (Workspace reports, 0000d001)");
    expect(await raw(oda.home, "reports", "0000d001")).toContain("enabled: true");
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Turn off 1 memory" }).click();
    const toast = page.getByRole("status").filter({ hasText: "Turned off 1 memory." });
    await expect(toast).toBeVisible();
    expect(await raw(oda.home, "reports", "0000d001")).toContain("enabled: false");
    await toast.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Put back 1 memory." })).toBeVisible();
    expect(await raw(oda.home, "reports", "0000d001")).toContain("enabled: true");

    // bulk selection in a set: delete two, then one Undo brings both back
    await page.goto("/memory/workspaces/reports");
    await page.getByRole("checkbox", { name: "Select “Chart colours”", exact: true }).check();
    await page.getByRole("checkbox", { name: "Select “chart colours”", exact: true }).check();
    await expect(page.getByText("2 selected")).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Delete selected" }).click();
    const deleted = page.getByRole("status").filter({ hasText: "Deleted 2 memories." });
    await expect(deleted).toBeVisible();
    await expect(page.getByRole("link", { name: "Chart colours", exact: true })).toHaveCount(0);
    await deleted.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Put back 2 memories." })).toBeVisible();
    await expect(page.getByRole("link", { name: "Chart colours", exact: true })).toBeVisible();
    await expect(page.getByRole("link", { name: "chart colours", exact: true })).toBeVisible();

    // bulk selection in Recently deleted: restore both at once
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await page.getByRole("button", { name: "Delete selected" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Deleted 3 memories." })).toBeVisible();
    await page.goto("/memory/deleted");
    await page.getByRole("checkbox", { name: "Select all" }).check();
    await expect(page.getByText("3 selected")).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Restore selected" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Restored 3 memories." })).toBeVisible();
    await expect(page.getByText("No memory is deleted.")).toBeVisible();
    expect(await raw(oda.home, "reports", "0000c002")).toContain("Use the green palette.");

    // bulk selection in a set: move two to Global, shown first, then one Undo brings both back
    await page.goto("/memory/workspaces/reports");
    await page.getByRole("checkbox", { name: "Select “Chart colours”", exact: true }).check();
    await page.getByRole("checkbox", { name: "Select “chart colours”", exact: true }).check();
    await expect(page.getByRole("button", { name: "Move to…" })).toBeDisabled(); // no set chosen yet
    await page.getByRole("combobox", { name: "Move selected to" }).selectOption({ label: "Global" });
    await page.getByRole("button", { name: "Move to…" }).click();
    const move = page.getByRole("dialog", { name: "Move to Global" });
    await expect(move).toContainText("Moves 2 memories from Workspace reports to Global:");
    await expect(move.getByRole("listitem")).toHaveText(["“Chart colours” (0000c001)", "“chart colours” (0000c002)"]);
    await expectAccessible(page);
    expect(await raw(oda.home, "reports", "0000c001")).toContain("Use the blue palette."); // nothing written yet
    await move.getByRole("button", { name: "Move 2 memories" }).click();
    const moved = page.getByRole("status").filter({ hasText: "Moved 2 memories." });
    await expect(moved).toBeVisible();
    await expect(page.getByRole("link", { name: "Chart colours", exact: true })).toHaveCount(0);
    expect(await raw(oda.home, null, "0000c001")).toContain("Use the blue palette.");
    expect(await raw(oda.home, null, "0000c002")).toContain("Use the green palette.");
    await moved.getByRole("button", { name: "Undo" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Moved back 2 memories." })).toBeVisible();
    await expect(page.getByRole("link", { name: "chart colours", exact: true })).toBeVisible();
    expect(await raw(oda.home, "reports", "0000c002")).toContain("Use the green palette.");
    await expect(raw(oda.home, null, "0000c002")).rejects.toThrow();
  });
});
