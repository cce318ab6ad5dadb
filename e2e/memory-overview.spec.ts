import { mkdir, writeFile } from "node:fs/promises";
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
