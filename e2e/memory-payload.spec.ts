import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createMemory, previewPayloadChange, setEnabled } from "../lib/memory";
import { putFile } from "../test-support/memory/testing";
import { expect, expectAccessible, seed, test } from "./fixtures";

const run = promisify(execFile);
const root = resolve(import.meta.dirname, "..");

/** The CLI's `memory payload --json` for the same home. */
async function cliPayload(
  home: string,
  workspace: string | null,
): Promise<{ tokens: number; text: string; limit: number }> {
  const args = ["bin/oda-admin", "memory", "payload", "--home", home, "--json"];
  if (workspace) args.push("--workspace", workspace);
  const { stdout } = await run(process.execPath, args, { cwd: root });
  return JSON.parse(stdout);
}

/** Every file under the home with its text, to prove a preview writes nothing. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out[join(e.parentPath, e.name)] = await readFile(join(e.parentPath, e.name), "utf8");
  }
  return out;
}

const tokensShown = async (page: import("@playwright/test").Page) =>
  Number(((await page.getByTestId("payload-tokens").textContent()) ?? "").replace(/\D/g, ""));

test.describe("what a chat receives", () => {
  test.use({
    odaSetup: seed(async ({ home }) => {
      let t = Date.parse("2026-11-29T18:00:00.000Z");
      const now = () => {
        t += 1000;
        return new Date(t);
      };
      await createMemory(
        home,
        null,
        { title: "Reply language", text: "Reply in English.\n\n  Keep it short." },
        { id: "aaaa0001", now },
      );
      await createMemory(home, null, { title: "Old habit", text: "Use tabs." }, { id: "aaaa0002", now });
      await setEnabled(home, null, "aaaa0002", false, { now });
      await createMemory(
        home,
        "reports",
        { title: "Tables", text: "Use tables for numbers.\nüñí — ✓ 👍" },
        { id: "bbbb0001", now },
      );
      await putFile(home, "memory/global/aaaa0003", "title: no block\n\nhello\n");
    }),
  });

  test("shows the exact payload, its token total as the CLI counts it, and what is left out", async ({ page, oda }) => {
    await page.goto("/memory/payload");
    const none = await cliPayload(oda.home, null);
    const payload = page.getByRole("region", { name: "Payload text" });
    await expect(payload).toHaveText(none.text);
    expect(await payload.locator("pre").textContent()).toBe(none.text); // exact, whitespace kept
    await expect(page.getByTestId("payload-tokens")).toHaveText(`About ${none.tokens} tokens`);
    expect(await tokensShown(page)).toBe(none.tokens);
    await expect(page.getByText(`of the ${none.limit.toLocaleString("en")}-token limit`)).toBeVisible();
    const left = page.getByRole("list", { name: "Memories left out" });
    await expect(left.getByRole("listitem")).toHaveText([
      /Old habit \(Global, aaaa0002\): turned off\./,
      /aaaa0003 \(Global, aaaa0003\): its file has a problem: The file does not start with a --- frontmatter block\./,
    ]);
    await expectAccessible(page);

    await page.getByLabel("A chat in").selectOption("reports");
    const reports = await cliPayload(oda.home, "reports");
    await expect(payload).toHaveText(reports.text);
    expect(await payload.locator("pre").textContent()).toBe(reports.text);
    expect(reports.text).toContain("## Tables\nUse tables for numbers.");
    await expect(page.getByTestId("payload-tokens")).toHaveText(`About ${reports.tokens} tokens`);
    expect(await tokensShown(page)).toBe(reports.tokens);

    // Outside changes show up without a reload.
    await createMemory(oda.home, "reports", { title: "Charts", text: "Label every axis." }, { id: "bbbb0002" });
    await expect(payload).toContainText("## Charts\nLabel every axis.");
    const after = await cliPayload(oda.home, "reports");
    await expect(page.getByTestId("payload-tokens")).toHaveText(`About ${after.tokens} tokens`);
  });

  test("previews the note a running chat would be sent after an edit, without saving", async ({ page, oda }) => {
    const before = await snapshot(oda.home);
    await page.goto("/memory/payload?workspace=reports");
    await expect(page.getByLabel("A chat in")).toHaveValue("reports");
    const section = page.getByRole("region", { name: "After an edit, preview the note a running chat would be sent" });
    await section.getByLabel("Memory to change").selectOption({ label: "Tables (Workspace reports)" });
    await expect(section.getByLabel("New title")).toHaveValue("Tables");
    await section.getByLabel("New title").fill("Tables and charts");
    await section.getByLabel("New text").fill("Use tables for numbers.\nLabel every axis.");
    await section.getByRole("button", { name: "Preview the note" }).click();
    const expected = await previewPayloadChange(
      oda.home,
      "reports",
      { workspace: "reports", id: "bbbb0001" },
      {
        kind: "edit",
        title: "Tables and charts",
        text: "Use tables for numbers.\nLabel every axis.",
      },
    );
    const note = section.getByRole("region", { name: "The note a running chat would be sent" });
    await expect(note).toHaveText(expected.note ?? "");
    expect(expected.note).toBe(
      "Your memory has changed.\n\nChanged:\n\n## Tables and charts\nUse tables for numbers.\nLabel every axis.\n\nThis applies from now on; the rest of your memory is unchanged.",
    );
    await expect(section).toContainText(`about ${expected.after.tokens} tokens (now ${expected.before.tokens})`);

    await section.getByLabel("Memory to change").selectOption({ label: "Old habit (Global, off)" });
    await section.getByRole("radio", { name: "Turn it on" }).check();
    await section.getByRole("button", { name: "Preview the note" }).click();
    await expect(note).toContainText("Added:\n\n## Old habit\nUse tabs.");

    await section.getByLabel("Memory to change").selectOption({ label: "Reply language (Global)" });
    await section.getByRole("radio", { name: "Delete it" }).check();
    await section.getByRole("button", { name: "Preview the note" }).click();
    await expect(note).toContainText('Removed: "Reply language".');

    await section.getByRole("radio", { name: "Change the title or text" }).check();
    await section.getByLabel("New title").fill("");
    await section.getByRole("button", { name: "Preview the note" }).click();
    await expect(section).toContainText("Saving this would be refused: A memory needs a title.");
    await expectAccessible(page);
    expect(await snapshot(oda.home)).toEqual(before);
  });
});
