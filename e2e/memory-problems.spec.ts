import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createMemory, listAllProblems, listSet } from "../lib/memory";
import { putFile } from "../test-support/memory/testing";
import { expect, expectAccessible, seed, test } from "./fixtures";

// Hand-written broken files: these tests are about files a person wrote wrongly.
const BAD_YAML = "---\ntitle: Broken\nenabled: [true\nsource: user\n---\n\nReply in French.\n";
const STILL_BROKEN = "---\ntitle: Broken\nenabled: maybe\nsource: user\n---\n\nReply in French.\n";
const FIXED = "---\ntitle: Fixed by hand\nenabled: true\nsource: user\n---\n\nReply in French.\n";

test.describe("memory problems", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      await createMemory(home, null, { title: "Fine", text: "A good memory." }, { id: "aaaa0001" });
      await putFile(home, "memory/global/cccc0001", BAD_YAML);
      await putFile(home, "memory/workspaces/reports/dddd0001", "---\ntitle: Half\n---\n\nNo flags.\n");
      await putFile(home, "settings.json", '{ "memory": { "versionsKept": 1 } }\n');
    }),
  });

  test("lists every problem with its exact message and path, and marks the parser's line", async ({ page, oda }) => {
    const expected = await listAllProblems(oda.home);
    expect(expected.map((p) => p.path)).toEqual([
      "settings.json",
      "memory/global/cccc0001",
      "memory/workspaces/reports/dddd0001",
    ]);
    await page.goto("/memory/problems");
    const list = page.getByRole("list", { name: "Problems" });
    await expect(list.getByRole("listitem")).toHaveCount(3);
    for (const p of expected) {
      const item = list.getByRole("listitem", { name: p.path });
      await expect(item.getByRole("heading")).toHaveText(p.path);
      await expect(item.getByText(p.message, { exact: true })).toBeVisible();
    }
    await expect(list.getByRole("listitem", { name: "memory/workspaces/reports/dddd0001" })).toContainText(
      "The frontmatter fields enabled, source are missing or invalid.",
    );
    const yaml = expected.find((p) => p.path === "memory/global/cccc0001");
    expect(yaml?.message).toMatch(/^The frontmatter is not valid YAML: /);
    expect(yaml?.line).toBeGreaterThan(1);
    const item = list.getByRole("listitem", { name: "memory/global/cccc0001" });
    await expect(item).toContainText(`line ${yaml?.line}`);
    const marked = item.locator("[data-faulty]");
    await expect(marked).toHaveCount(1);
    await expect(marked.locator("mark")).toHaveText(
      `Line ${yaml?.line}, named by the parser: ${BAD_YAML.split("\n")[(yaml?.line ?? 1) - 1]}`,
    );
    await expectAccessible(page);
  });

  test("a fix in the raw editor is saved only once the file reads; then the memory is back in its set", async ({
    page,
    oda,
  }) => {
    const path = join(oda.home, "memory", "global", "cccc0001");
    await page.goto("/memory/problems");
    const item = page.getByRole("listitem", { name: "memory/global/cccc0001" });
    await item.getByRole("button", { name: "Fix the file here (memory/global/cccc0001)" }).click();
    const editor = item.getByLabel("Raw text of memory/global/cccc0001");
    await expect(editor).toHaveValue(BAD_YAML);

    await editor.fill(STILL_BROKEN);
    await item.getByRole("button", { name: "Save the fix" }).click();
    await expect(
      item.getByText("The memory could not be changed: The frontmatter fields enabled are missing or invalid."),
    ).toBeVisible();
    await expect(editor).toHaveAttribute("aria-invalid", "true");
    await expect(editor).toHaveAccessibleDescription(/The frontmatter fields enabled are missing or invalid\./);
    expect(await readFile(path, "utf8")).toBe(BAD_YAML);
    await expectAccessible(page);

    await editor.fill(FIXED);
    await item.getByRole("button", { name: "Save the fix" }).click();
    await expect(page.getByRole("status").filter({ hasText: "memory/global/cccc0001 is fixed" })).toBeVisible();
    await expect(page.getByRole("listitem", { name: "memory/global/cccc0001" })).toHaveCount(0);
    await expect(page.getByRole("list", { name: "Problems" }).getByRole("listitem")).toHaveCount(2);
    expect(await readFile(path, "utf8")).toBe(FIXED);
    const set = await listSet(oda.home, null);
    expect(set.memories.map((m) => [m.id, m.title])).toContainEqual(["cccc0001", "Fixed by hand"]);
    await page.goto("/memory/payload");
    await expect(page.getByRole("region", { name: "Payload text" })).toContainText(
      "## Fixed by hand\nReply in French.",
    );
  });
});
