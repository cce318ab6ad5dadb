import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readOnlySentence } from "../lib/bundle/messages";
import { unpackBundle } from "../lib/bundle/unpack";
import { walkLogFolder } from "../lib/chats/folder";
import { makeDemoInto } from "../scripts/demo";
import { expect, expectAccessible, seedOnce, test } from "./fixtures";
import { startServer } from "./server";

test.use({
  odaDemo: true,
  odaSetup: seedOnce(async ({ home, logs }) => void (await makeDemoInto({ home, logs, seed: 3, chats: 12 }))),
});

test("Marks and notes on the chosen chats: the box puts the chat's notes file in the bundle's preview", async ({
  page,
  oda,
}) => {
  test.slow(); // two previews of the demo data on a shared machine
  // A mark on a chat's first line, made as a person makes it.
  const id = walkLogFolder(oda.logs).chats[0]?.id;
  if (!id) throw new Error("the demo data has no chat");
  await page.goto(`/chats/${encodeURIComponent(id)}?line=1&view=raw`);
  await expect(page.locator('[role="listitem"][aria-current="true"]')).toBeVisible();
  await page.keyboard.press("m");
  await expect(page.getByText("Line 1 marked.")).toBeVisible();

  await page.goto("/support");
  await page.getByLabel("These chats").check();
  await page.getByLabel("Chat ids (comma-separated)").fill(id);
  const box = page.getByLabel("Marks and notes on the chosen chats (redacted like the rest)");
  await expect(box).not.toBeChecked();
  const files = page.locator('details:has(summary:text-matches("^Files")) li');
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "What goes in" })).toBeVisible({ timeout: 60_000 });
  await expect(files.filter({ hasText: /^notes\// })).toHaveCount(0);
  await box.check();
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(files.filter({ hasText: /^notes\/.*\.json/ })).toHaveCount(1, { timeout: 60_000 });
  await expectAccessible(page);
});

test("a bundle made in the page opens in a second server: every page under the banner, every save refused", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await page.goto("/support");
  await expect(page.getByRole("heading", { level: 1, name: "Support bundle" })).toBeVisible();
  await expectAccessible(page);

  // "Chat ids" is read only with "These chats": with every chat chosen, it is disabled
  const ids = page.getByLabel("Chat ids (comma-separated)");
  await expect(page.getByLabel("Every chat")).toBeChecked();
  await expect(ids).toBeDisabled();
  await page.getByLabel("These chats").check();
  await expect(ids).toBeEnabled();
  await page.getByLabel("Every chat").check();
  await expect(ids).toBeDisabled();

  // the preview comes before anything is written, and the greyed-out Create bundle says so
  const create = page.getByRole("button", { name: "Create bundle" });
  await expect(create).toBeDisabled();
  await expect(create).toHaveAccessibleDescription(/^Preview first: it lists every file that goes in/);
  await page.getByRole("button", { name: "Preview" }).click();
  await expect(page.getByRole("heading", { name: "What goes in" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText(/\d+ files, .*: \d+ chats, \d+ memories/)).toBeVisible();
  const replaced = page.getByRole("table", { name: "Values each redaction replaces" });
  await expect(replaced).toBeVisible();
  // every kind chosen has its row and its count, found or not; names need a keyword, as the page says
  for (const kind of [
    "User names in home folder paths",
    "Host names",
    "E-mail addresses",
    "IP addresses",
    "Keys, tokens and passwords",
  ])
    await expect(replaced.getByRole("row", { name: new RegExp(`^${kind} \\d+$`) })).toBeVisible();
  await expect(page.getByLabel("Keywords to replace too (comma-separated)")).toHaveAccessibleDescription(
    "The kinds above are found by themselves. People's and companies' names are not: give each one as a keyword.",
  );
  await page.getByRole("button", { name: "Create bundle" }).click();
  const link = page.getByRole("link", { name: /^Download oda-support-.*\.tar\.gz$/ });
  await expect(link).toBeVisible({ timeout: 120_000 });
  await expect(
    page.getByText(/The map from placeholders back to the real values stays on this computer/),
  ).toBeVisible();
  // the page fits a 390 px window: the bundle file field, the file name and the map's path do not widen it
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(link).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 720 });
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  const dir = await mkdtemp(join(tmpdir(), "oda-e2e-bundle-"));
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);

  // a second server over the bundle, as `oda-admin serve --bundle` starts it
  const opened = await unpackBundle(file, join(dir, "state"));
  const second = await startServer(
    { home: opened.home, logs: opened.logs, state: opened.state },
    { ODA_ADMIN_BUNDLE: opened.dir, ODA_ADMIN_BUNDLE_NAME: opened.name },
  );
  const context = await browser.newContext({ baseURL: second.baseURL });
  await context.addCookies([
    {
      name: `oda_admin_${second.port}`,
      value: second.token,
      domain: "127.0.0.1",
      path: "/",
      httpOnly: true,
      sameSite: "Strict",
    },
  ]);
  const reader = await context.newPage();
  try {
    const memoryIds = (await readdir(join(opened.home, "memory", "global"))).filter((n) => /^[0-9a-f]{8}$/.test(n));
    // Started on the bundle: the root shows it, at its own address.
    await reader.goto("/");
    await expect(reader).toHaveURL(/\/b\/[a-z0-9-]+$/);
    const at = new URL(reader.url()).pathname;
    const pages = [
      "",
      "/memory",
      "/memory/global",
      `/memory/global/${memoryIds[0]}`,
      "/memory/settings",
      "/chats",
      "/search",
      "/support",
      "/support/doctor",
    ];
    for (const path of pages) {
      await reader.goto(`${at}${path}`);
      const banner = reader.getByRole("note", { name: "Support bundle" });
      await expect(banner, path).toContainText(opened.name);
      // The creation time is shown in the reader's zone, the exact ISO time on hover.
      await expect(banner.locator("time"), path).toHaveAttribute("title", opened.manifest.createdAt);
      await expect(reader.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
    }
    await expectAccessible(reader);
    await expect(reader.getByRole("heading", { level: 1, name: "Doctor report" })).toBeVisible();

    // a chat of the bundle reads like any other
    await reader.goto(`${at}/chats`);
    await reader.locator(`a[href^="${at}/chats/"]`).first().click();
    await expect(reader).toHaveURL(new RegExp(`${at}/chats/.+`));
    await expect(reader.getByRole("note", { name: "Support bundle" })).toBeVisible();

    // nothing is offered that would write: each control is disabled with the read-only sentence
    await reader.goto(`${at}/memory/settings`);
    await expect(reader.getByRole("button", { name: "Save settings" })).toBeDisabled();
    await expect(reader.getByRole("button", { name: "Save settings" })).toHaveAccessibleDescription(
      readOnlySentence(opened.name),
    );
    await reader.goto(`${at}/memory/global/${memoryIds[0]}`);
    await expect(reader.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
    await expect(reader.getByRole("button", { name: "Save", exact: true })).toHaveAccessibleDescription(
      readOnlySentence(opened.name),
    );
  } finally {
    await context.close();
    await second.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
