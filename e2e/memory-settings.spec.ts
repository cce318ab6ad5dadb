import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, expectAccessible, seed, test } from "./fixtures";

test.describe("memory settings", () => {
  test("shows each limit with its range, refuses values outside it, and saves settings.json", async ({ page, oda }) => {
    await page.goto("/memory/settings");
    const titleLimit = page.getByLabel("Title limit (characters)");
    await expect(titleLimit).toHaveValue("120");
    await expect(page.getByText("From 20 to 1,000; the default is 120.")).toBeVisible();
    await expect(page.getByLabel("Versions kept per memory (versions)")).toHaveValue("10");
    await expect(page.getByText("From 2 to 100; the default is 10.")).toBeVisible();
    await expectAccessible(page);

    await titleLimit.fill("10");
    await page.getByLabel("Versions kept per memory (versions)").fill("101");
    await page.getByRole("button", { name: "Save settings" }).click();
    // each field's error is part of its accessible description (the Field primitive wires it)
    await expect(titleLimit).toHaveAccessibleDescription(
      /memory\.titleMaxChars must be a whole number from 20 to 1000; 10 is not\.$/,
    );
    await expect(page.getByLabel("Versions kept per memory (versions)")).toHaveAccessibleDescription(
      /memory\.versionsKept must be a whole number from 2 to 100; 101 is not\.$/,
    );
    await expect(titleLimit).toHaveAttribute("aria-invalid", "true");
    await expect(readFile(join(oda.home, "settings.json"), "utf8")).rejects.toThrow();

    await titleLimit.fill("30");
    await page.getByLabel("Versions kept per memory (versions)").fill("5");
    await page.getByLabel("Compressed chat logs").uncheck();
    await page.getByRole("button", { name: "Save settings" }).click();
    // A change of the logs' form asks first (here no chat would be refused: the log folder is empty).
    const ask = page.getByRole("dialog", { name: "Keep plain chat logs?" });
    // The count reads the log folder on the server: give it the time a loaded machine needs.
    await expect(ask).toContainText("No chat would be refused", { timeout: 30_000 });
    await ask.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Settings saved.");
    const saved = JSON.parse(await readFile(join(oda.home, "settings.json"), "utf8"));
    expect(saved).toEqual({
      memory: { titleMaxChars: 30, textMaxChars: 2000, fileMaxBytes: 65536, chatMaxTokens: 8000, versionsKept: 5 },
      sessions: { compress: false },
    });
  });

  test.describe("with a broken settings.json", () => {
    test.use({
      odaSetup: seed(async ({ home }) => {
        // hand-written out-of-range values: the test is about them
        await writeFile(join(home, "settings.json"), JSON.stringify({ memory: { chatMaxTokens: 100 }, other: 1 }));
      }),
    });

    test("lists the problem, shows the default in use, and keeps other keys when saving", async ({ page, oda }) => {
      await page.goto("/memory/settings");
      await expect(page.getByRole("region", { name: "Settings problems" })).toContainText(
        // The page groups the range and the default like its other numbers; the value quoted from the file stays.
        "memory.chatMaxTokens must be a whole number from 500 to 200,000; 100 is not. The default 8,000 is used.",
      );
      const tokens = page.getByLabel("What a chat receives (tokens)");
      await expect(tokens).toHaveValue("8000");
      await expectAccessible(page);
      await tokens.fill("600");
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Settings saved.");
      const saved = JSON.parse(await readFile(join(oda.home, "settings.json"), "utf8"));
      expect(saved.memory.chatMaxTokens).toBe(600);
      expect(saved.other).toBe(1);
      await page.reload();
      await expect(page.getByRole("region", { name: "Settings problems" })).toHaveCount(0);
    });
  });
});
