import { cp, readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { listAllChats } from "../lib/chats";
import { listSet } from "../lib/memory";
import { makeDemoInto } from "../scripts/demo";
import { expect, expectAccessible, type Oda, seedOnce, test } from "./fixtures";

/** Every page of the dashboard over demo data, in the system's dark scheme, with an axe check each. */

interface Visit {
  name: string;
  path: (oda: Oda) => Promise<string>;
  /** Something the finished page shows, beyond its heading. */
  ready?: (page: Page) => Promise<void>;
  /** A later state of the page to check again (after background work ends). */
  later?: (page: Page) => Promise<void>;
}

const at = (path: string) => async () => path;

async function memoryPath(oda: Oda, workspace: string | null, title: string, rest = ""): Promise<string> {
  const memory = (await listSet(oda.home, workspace)).memories.find((m) => m.title === title);
  if (!memory) throw new Error(`the demo has no memory "${title}"`);
  return `/memory/${workspace ? `workspaces/${workspace}` : "global"}/${memory.id}${rest}`;
}

async function aChat(oda: Oda): Promise<string> {
  const { chats } = await listAllChats(oda.logs);
  const chat = chats.find((c) => c.problems.length === 0 && c.title);
  if (!chat) throw new Error("the demo has no chat without problems");
  return `/chats/${encodeURIComponent(chat.id)}`;
}

/** The demo chat this spec copies into a second working folder, so one chat is stored in two places. */
async function aDuplicatedChat(oda: Oda): Promise<string> {
  const { problems } = await listAllChats(oda.logs);
  const id = problems.find((p) => p.kind === "duplicate")?.chat;
  if (!id) throw new Error("the seed made no chat stored in two places");
  return `/chats/${encodeURIComponent(id)}`;
}

const PAGES: Visit[] = [
  { name: "home", path: at("/"), ready: (p) => expect(p.getByRole("region", { name: "Memory" })).toBeVisible() },
  { name: "memory overview", path: at("/memory"), ready: (p) => expect(p.getByRole("table")).toBeVisible() },
  { name: "global set", path: at("/memory/global") },
  { name: "workspace set", path: at("/memory/workspaces/reports") },
  {
    name: "memory health",
    path: at("/memory/health"),
    ready: (p) => expect(p.getByText(/^(\d+ findings?|No findings) in \d+ memories\.$/)).toBeVisible(),
  },
  {
    name: "editor",
    path: (oda) => memoryPath(oda, null, "Units and measures"),
    // The reached chats opened, and the delete dialog over the page.
    later: async (p) => {
      await p.getByText(/^Every chat this memory reaches/).click();
      await p.getByRole("button", { name: "Delete", exact: true }).click();
      await expect(p.getByRole("dialog", { name: "Delete this memory?" })).toBeVisible();
    },
  },
  {
    name: "editor, unsaved edits",
    path: (oda) => memoryPath(oda, null, "Units and measures"),
    // The question before leaving with unsaved edits.
    later: async (p) => {
      await p.getByLabel("Text", { exact: true }).fill("Metric units, not saved.");
      await p.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Chats" }).click();
      await expect(p.getByRole("dialog", { name: "Leave without saving?" })).toBeVisible();
    },
  },
  { name: "no such workspace set", path: at("/memory/workspaces/no-such-set") },
  { name: "no such memory's history", path: at("/memory/global/ffffffff/history") },
  {
    name: "history",
    path: (oda) => memoryPath(oda, "reports", "Quarterly report layout", "/history"),
    ready: (p) => expect(p.getByRole("list", { name: "Versions, newest first" })).toBeVisible(),
    later: async (p) => {
      await p.getByRole("button", { name: "Side by side" }).click();
      await expect(p.getByRole("table", { name: /side by side/ })).toBeVisible();
    },
  },
  { name: "deleted", path: at("/memory/deleted") },
  {
    name: "payload",
    path: at("/memory/payload"),
    ready: (p) => expect(p.getByRole("region", { name: "Payload text" })).toBeVisible(),
  },
  { name: "problems", path: at("/memory/problems") },
  {
    name: "settings",
    path: at("/memory/settings"),
    // The question a form change that makes chats refused asks first.
    later: async (p) => {
      await p.getByRole("checkbox", { name: /Compressed chat logs/ }).uncheck();
      await p.getByRole("button", { name: "Save settings" }).click();
      await expect(p.getByRole("dialog", { name: "Keep plain chat logs?" })).toContainText("Oda would then refuse", {
        timeout: 30_000,
      });
    },
  },
  {
    name: "chat list",
    path: at("/chats"),
    // the list is complete once the folder check is done: on a loaded machine, longer than the default 10 s
    ready: (p) => expect(p.getByText(/^Showing \d+ of \d+ chats/)).toBeVisible({ timeout: 30_000 }),
  },
  {
    name: "inspector, conversation",
    path: aChat,
    ready: (p) => expect(p.getByRole("region", { name: /^Lines of / })).toBeVisible(),
    later: async (p) => {
      await p
        .getByText(/^Memory sent/)
        .first()
        .click();
      await expect(p.getByText("## Reply language").first()).toBeVisible();
    },
  },
  {
    name: "inspector, raw lines",
    path: async (oda) => `${await aChat(oda)}?view=raw`,
    ready: (p) => expect(p.getByRole("region", { name: /^Lines of / })).toBeVisible(),
  },
  {
    name: "chat stored in two places",
    path: aDuplicatedChat,
    ready: (p) => expect(p.getByRole("region", { name: /^Copy 2, in / })).toContainText("SHA-256"),
  },
  {
    name: "search",
    path: at("/search?q=revenue"),
    ready: (p) => {
      // The index is built in the background while the page is checked.
      test.setTimeout(180_000);
      return expect(p.getByRole("list", { name: "Chats that match" })).toBeVisible({ timeout: 30_000 });
    },
    // First checked while the index is being built (its progress bar), then once it is current.
    later: (p) => expect(p.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 60_000 }),
  },
  {
    name: "insights",
    path: at("/insights?tz=UTC"),
    ready: async (p) => {
      // The index is built in the background before the page shows its charts.
      test.setTimeout(180_000);
      await expect(p.getByRole("heading", { name: "Usage", level: 2 })).toBeVisible();
    },
    // Once the index is built the page re-renders with its charts; then a chart's table view.
    later: async (p) => {
      await expect(p.getByText(/^The search index is up to date/)).toBeVisible({ timeout: 60_000 });
      const card = p.getByRole("region", { name: "Tokens per day, by model" });
      await card.getByRole("button", { name: "Table view" }).click();
      await expect(card.getByRole("table")).toBeVisible({ timeout: 30_000 });
    },
  },
];

/**
 * Pages no other spec runs axe on in the light scheme (`grep expectAccessible e2e`): the others are
 * checked where their features are tested.
 */
const LIGHT_ONLY_HERE = ["global set"];

/** Relative luminance (WCAG) of a CSS colour as the browser paints it, whatever its notation (oklch…). */
async function luminance(page: Page, selector: string, property: "backgroundColor" | "color"): Promise<number> {
  return page.evaluate(
    ([sel, prop]) => {
      const element = document.querySelector(sel as string);
      if (!element) throw new Error(`no ${sel}`);
      const css = getComputedStyle(element)[prop as "color"];
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = 1;
      const ctx = canvas.getContext("2d") as CanvasRenderingContext2D;
      ctx.fillStyle = css;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = Array.from(ctx.getImageData(0, 0, 1, 1).data).map((c) => {
        const s = c / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      }) as [number, number, number];
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    },
    [selector, property],
  );
}

async function visit(page: Page, oda: Oda, v: Visit): Promise<void> {
  await page.goto(await v.path(oda));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await v.ready?.(page);
  // Client-side data is in: no "Reading …" / "Loading …" placeholders left.
  await expect(page.getByRole("status").filter({ hasText: /^(Reading|Loading)\b/ })).toHaveCount(0, {
    timeout: 20_000,
  });
}

test.use({
  odaSetup: seedOnce(async ({ home, logs }) => {
    await makeDemoInto({ home, logs, seed: 2, chats: 15 });
    // One chat copied into a second working folder: the duplicate comparison is a page of its own.
    const folder = (await readdir(logs)).find((name) => name.startsWith("--"));
    if (!folder) throw new Error("the demo has no working folder");
    const chat = (await readdir(join(logs, folder)))[0];
    if (!chat) throw new Error(`the demo's ${folder} has no chat`);
    await cp(join(logs, folder, chat), join(logs, "--%2Fsrv%2Fcopied--", chat), { recursive: true });
  }),
});

test.describe("in the system's dark scheme", () => {
  test.use({ colorScheme: "dark" });

  for (const v of PAGES) {
    test(`${v.name} renders dark and passes axe`, async ({ page, oda }) => {
      await visit(page, oda, v);
      expect(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches)).toBe(true);
      expect(await luminance(page, "body", "backgroundColor"), "body background").toBeLessThan(0.05);
      expect(await luminance(page, "main", "color"), "main text").toBeGreaterThan(0.6);
      await expectAccessible(page);
      if (v.later) {
        await v.later(page);
        await expectAccessible(page);
      }
    });
  }
});

test.describe("in the light scheme", () => {
  test.use({ colorScheme: "light" });

  for (const v of PAGES.filter((p) => LIGHT_ONLY_HERE.includes(p.name))) {
    test(`${v.name} renders light and passes axe`, async ({ page, oda }) => {
      await visit(page, oda, v);
      expect(await luminance(page, "body", "backgroundColor"), "body background").toBeGreaterThan(0.9);
      await expectAccessible(page);
      if (v.later) {
        await v.later(page);
        await expectAccessible(page);
      }
    });
  }
});
