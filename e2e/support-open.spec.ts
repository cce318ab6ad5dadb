import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { createBundle, REDACT_KINDS } from "../lib/bundle";
import { readOnlySentence } from "../lib/bundle/messages";
import { createMemory, findMemory } from "../lib/memory";
import { makeDemoInto } from "../scripts/demo";
import { expect, expectAccessible, seedOnce, test } from "./fixtures";

const scope = (kinds: (typeof REDACT_KINDS)[number][]) => ({
  chats: "all" as const,
  since: null,
  memory: true,
  kinds,
  keywords: [],
  dropText: false,
});

test.use({
  odaSetup: seedOnce(async ({ home, logs, state }) => {
    await makeDemoInto({ home, logs, seed: 4, chats: 6 });
    await createBundle({ home, logs }, scope([...REDACT_KINDS]), join(state, "..", "from-ana.tar.gz"), {
      version: "e2e",
    });
    await writeFile(join(state, "..", "not-a-bundle.tar.gz"), "not an archive");
    // Two more installations, each with a memory of its own, bundled: three sources that show different data.
    for (const who of ["ana", "bo"]) {
      const base = join(state, "..", who);
      await makeDemoInto({ home: join(base, "home"), logs: join(base, "logs"), seed: who === "ana" ? 5 : 6, chats: 2 });
      await createMemory(join(base, "home"), null, { title: `Only in ${who}'s bundle`, text: `${who}'s own note` });
      await createBundle(
        { home: join(base, "home"), logs: join(base, "logs") },
        scope([]),
        join(state, "..", `${who}.tar.gz`),
        { version: "e2e" },
      );
    }
    await createMemory(home, null, { title: "Only in the live installation", text: "the live note" });
  }),
});

/** Opens a bundle file from the Bundles page; resolves with the address of its pages (`/b/<id>`). */
async function openBundle(page: Page, file: string): Promise<string> {
  await page.goto("/bundles");
  await page.getByLabel("Bundle file on this computer").fill(file);
  await page.getByRole("button", { name: "Open bundle" }).click();
  await expect(page).toHaveURL(/\/b\/[a-z0-9-]+$/, { timeout: 30_000 });
  return new URL(page.url()).pathname;
}

/** What the global set's page of a tab lists, and the banner's bundle name (null for live). */
async function expectShows(page: Page, own: string, others: string[], bundle: string | null): Promise<void> {
  await expect(page.getByRole("link", { name: own, exact: true })).toBeVisible();
  for (const other of others) await expect(page.getByRole("link", { name: other, exact: true })).toHaveCount(0);
  const banner = page.getByRole("note", { name: "Support bundle" });
  if (bundle) await expect(banner).toContainText(bundle);
  else await expect(banner).toHaveCount(0);
}

test("Open a bundle in a running dashboard: refused when bad, shown read-only at its own address, then closed", async ({
  page,
  oda,
}) => {
  await page.goto("/support");
  const path = page.getByLabel("Bundle file on this computer");
  await path.fill(join(oda.state, "..", "not-a-bundle.tar.gz"));
  await page.getByRole("button", { name: "Open bundle" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "The bundle cannot be read as a .tar.gz archive" }),
  ).toBeVisible();
  await expect(page.getByRole("note", { name: "Support bundle" })).toHaveCount(0);

  await path.fill(join(oda.state, "..", "from-ana.tar.gz"));
  await page.getByRole("button", { name: "Open bundle" }).click();
  const banner = page.getByRole("note", { name: "Support bundle" });
  await expect(banner).toContainText("from-ana.tar.gz", { timeout: 30_000 });
  const prefix = new URL(page.url()).pathname;
  expect(prefix).toMatch(/^\/b\/from-ana-[0-9]+$/);
  // Its Home says what was taken out before it was sent (the manifest's redaction report, never a value).
  const redacted = page.getByRole("region", { name: "What was redacted" });
  for (const kind of ["E-mail addresses", "IP addresses", "Keys, tokens and passwords", "Host names"])
    await expect(redacted.getByRole("row", { name: new RegExp(`^${kind} \\d+ \\d+$`) })).toBeVisible();
  // Links inside the bundle stay inside it.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Memory" }).click();
  await expect(page).toHaveURL(new RegExp(`${prefix}/memory$`));
  await page.goto(`${prefix}/memory/settings`);
  const save = page.getByRole("button", { name: "Save settings" });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription(readOnlySentence("from-ana.tar.gz"));
  // The live pages are where they were, writable.
  await page.goto("/memory/settings");
  await expect(page.getByRole("note", { name: "Support bundle" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Save settings" })).toBeEnabled();

  await page.goto(prefix);
  await banner.getByRole("button", { name: "Close the bundle" }).click();
  await expect(page).toHaveURL(/\/bundles$/);
  await expect(page.getByRole("note", { name: "Support bundle" })).toHaveCount(0);
  await expect(page.getByText("No bundle is open.")).toBeVisible();
  // The closed bundle's address is gone with it.
  const gone = await page.request.get(`${prefix}/memory`);
  expect(gone.status()).toBe(404);
  await page.goto("/support");
  await expect(page.getByRole("heading", { name: "Create a support bundle" })).toBeVisible();
});

test("live and two bundles side by side in three tabs: each its own data, a failed open changes none, no write in a bundle", async ({
  page,
  context,
  oda,
}) => {
  test.setTimeout(240_000);
  const ana = await openBundle(page, join(oda.state, "..", "ana.tar.gz"));
  const bo = await openBundle(page, join(oda.state, "..", "bo.tar.gz"));
  expect(ana).not.toBe(bo);
  const live = page;
  const anaTab = await context.newPage();
  const boTab = await context.newPage();
  const LIVE = "Only in the live installation";
  const ANA = "Only in ana's bundle";
  const BO = "Only in bo's bundle";
  const showAll = async () => {
    await live.goto("/memory/global");
    await anaTab.goto(`${ana}/memory/global`);
    await boTab.goto(`${bo}/memory/global`);
    await expectShows(live, LIVE, [ANA, BO], null);
    await expectShows(anaTab, ANA, [LIVE, BO], "ana.tar.gz");
    await expectShows(boTab, BO, [LIVE, ANA], "bo.tar.gz");
  };
  await showAll();

  // The Bundles page lists both, with what each holds.
  await live.goto("/bundles");
  const list = live.getByRole("list", { name: "Open sources" });
  await expect(list.getByRole("listitem", { name: "ana.tar.gz" })).toContainText(/\d+ problems?|no problems/);
  await expect(list.getByRole("listitem", { name: "bo.tar.gz" })).toContainText("by Oda Admin e2e");

  // Two opened bundles compared, as `oda-admin bundle diff` does: ana's first (before), bo's second (after).
  await live.getByRole("button", { name: "Compare" }).click();
  await expect(live).toHaveURL(/\/bundles\/compare\?a=[a-z0-9-]+&b=[a-z0-9-]+$/);
  await expect(live.getByRole("heading", { level: 1, name: "Compare bundles" })).toBeVisible();
  await expect(live.getByRole("region", { name: "Chats" })).toContainText(
    /\d+ added, \d+ removed, \d+ grown, \d+ shrunk, \d+ unchanged\./,
  );
  await expect(live.getByRole("region", { name: "Memories" })).toContainText("Only in bo's bundle");
  await expect(live.getByRole("region", { name: "Problems" })).toContainText("each bundle's own doctor report");
  await expectAccessible(live);
  await live.goto("/bundles");

  // A failed open (a file that is no bundle) changes nothing: the three tabs show what they showed.
  await live.getByLabel("Bundle file on this computer").fill("/etc/passwd");
  await live.getByRole("button", { name: "Open bundle" }).click();
  await expect(live.getByText("The bundle cannot be read as a .tar.gz archive: incorrect header check.")).toBeVisible({
    timeout: 30_000,
  });
  await expect(live).toHaveURL(/\/bundles$/);
  await expect(list.getByRole("listitem")).toHaveCount(3);
  await showAll();

  // In a bundle tab, no control that writes is enabled, and each says why.
  const reason = readOnlySentence("ana.tar.gz");
  await expect(anaTab.getByRole("switch", { name: `Send “${ANA}” to chats` })).toBeDisabled();
  await expect(anaTab.getByRole("button", { name: "New memory" })).toBeDisabled();
  await expect(anaTab.getByRole("button", { name: "New memory" })).toHaveAccessibleDescription(reason);
  await anaTab.getByRole("link", { name: ANA, exact: true }).click();
  await expect(anaTab).toHaveURL(new RegExp(`${ana}/memory/global/[0-9a-f]{8}$`));
  for (const name of ["Save", "Delete"]) {
    const button = anaTab.getByRole("button", { name, exact: true });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAccessibleDescription(reason);
  }
  await expect(anaTab.getByRole("switch", { name: "Send this memory to chats" })).toBeDisabled();
  await anaTab.goto(`${ana}/repairs`);
  await expect(anaTab.getByRole("button", { name: "Convert every chat to the folder's form" })).toBeDisabled();
  // The live tab's same controls are enabled.
  await live.goto("/memory/global");
  await expect(live.getByRole("button", { name: "New memory" })).toHaveCount(0);
  await expect(live.getByRole("link", { name: "New memory" })).toBeVisible();
});

test("a forged write aimed at a bundle is refused by the server", async ({ page, oda }) => {
  test.setTimeout(240_000);
  const ana = await openBundle(page, join(oda.state, "..", "ana.tar.gz"));

  // Forged: the bundle page's disabled Save, enabled by hand; the server refuses it for that source.
  await page.goto(`${ana}/memory/settings`);
  const save = page.getByRole("button", { name: "Save settings" });
  await expect(save).toBeDisabled();
  await save.evaluate((button) => button.removeAttribute("disabled"));
  await save.click();
  await expect(page.getByText(readOnlySentence("ana.tar.gz")).and(page.getByRole("alert")).first()).toBeVisible();
});

test("a slow write lands only where its page was rendered, while another tab opens a bundle", async ({
  page,
  context,
  oda,
}) => {
  test.setTimeout(240_000);

  // Slow: a live save held in the browser while another tab opens a bundle (the old global switch), then let go.
  await page.goto("/memory/global");
  await page.getByRole("link", { name: "Only in the live installation", exact: true }).click();
  await expect(page).toHaveURL(/\/memory\/global\/[0-9a-f]{8}$/);
  const id = page.url().split("/").pop() ?? "";
  let release: () => void = () => {};
  const held = new Promise<void>((seen) => {
    void page.route(
      (url) => url.pathname.endsWith(`/memory/global/${id}`),
      async (route) => {
        if (route.request().method() !== "POST") return route.continue();
        seen();
        await new Promise<void>((go) => {
          release = go;
        });
        await route.continue();
      },
    );
  });
  await page.getByLabel("Text", { exact: true }).fill("Written while another tab switched sources.");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await held;
  const other = await context.newPage();
  const bo = await openBundle(other, join(oda.state, "..", "bo.tar.gz"));
  await other.goto(`${bo}/memory/global`);
  release();
  await expect
    .poll(
      async () => {
        const m = await findMemory(oda.home, null, id);
        return m?.ok ? m.text : null;
      },
      { timeout: 30_000 },
    )
    .toBe("Written while another tab switched sources.");
  // Nothing of the bundles changed: their memory reads as it was shipped.
  await other.reload();
  await other.getByRole("link", { name: "Only in bo's bundle", exact: true }).click();
  await expect(other.getByLabel("Text", { exact: true })).toHaveValue("bo's own note");
});
