import { rmSync } from "node:fs";
import { cp, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { type RunningServer, startServer } from "./server";

/** The temp roots and the server of one test. */
export interface Oda extends RunningServer {
  home: string;
  logs: string;
  state: string;
}

/** Fills a test's temp roots before its server starts. */
export type SetupRoots = (roots: { home: string; logs: string; state: string }) => Promise<void>;

/**
 * Wraps a setup function for `test.use`: Playwright would take a bare function
 * there for a fixture of its own, so it travels inside an object.
 *
 *   test.use({ odaSetup: seed(async ({ home, logs }) => { ... }) });
 */
export function seed(run: SetupRoots): { run: SetupRoots } {
  return { run };
}

/**
 * Like {@link seed}, for a setup that costs seconds (demo data, bundles made from it) and gives the same
 * files every time: it runs once per Playwright worker, into a folder of its own, and each test gets a
 * copy of what it made (files with the copy's time, as a fresh setup would give). For plain files and
 * folders only: a setup that makes FIFOs, or links whose targets name its folder, uses `seed`.
 */
export function seedOnce(run: SetupRoots): { run: SetupRoots } {
  let made: Promise<string> | null = null;
  return {
    run: async (roots) => {
      made ??= (async () => {
        const dir = await mkdtemp(join(tmpdir(), "oda-e2e-seed-"));
        process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
        const own = { home: join(dir, "home"), logs: join(dir, "logs"), state: join(dir, "state") };
        await Promise.all(Object.values(own).map((p) => mkdir(p, { recursive: true })));
        await run(own);
        return dir;
      })();
      // The roots are siblings in the test's own folder; a setup may write beside them (a bundle file).
      await cp(await made, dirname(roots.home), { recursive: true, force: true });
    },
  };
}

type Options = {
  /** Fills the temp roots before the server starts (demo data, a fixture, nothing): use `seed(fn)`. */
  odaSetup: { run: SetupRoots } | null;
  /** Serve the roots as demo data (the "Demo data" banner). */
  odaDemo: boolean;
};

/**
 * `oda`: a fresh temp Oda home, log folder and state folder, with a production
 * server over them; `page` arrives already holding the access cookie.
 */
export const test = base.extend<Options & { oda: Oda }>({
  odaSetup: [null, { option: true }],
  odaDemo: [false, { option: true }],
  oda: async ({ odaSetup, odaDemo }, use) => {
    const dir = await mkdtemp(join(tmpdir(), "oda-e2e-"));
    const roots = { home: join(dir, "home"), logs: join(dir, "logs"), state: join(dir, "state") };
    await Promise.all(Object.values(roots).map((p) => mkdir(p, { recursive: true })));
    if (odaSetup) await odaSetup.run(roots);
    const server = await startServer({ ...roots, demo: odaDemo });
    await use({ ...roots, ...server });
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  },
  baseURL: async ({ oda }, use) => use(oda.baseURL),
  context: async ({ context, oda }, use) => {
    await context.addCookies([
      {
        name: `oda_admin_${oda.port}`,
        value: oda.token,
        domain: "127.0.0.1",
        path: "/",
        httpOnly: true,
        sameSite: "Strict",
      },
    ]);
    await use(context);
  },
});

export { expect };

/** Runs axe on the page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  // Next streams a dynamic page's metadata: after a client-side navigation the <title> arrives a moment later.
  // Every page must have one, so wait for it rather than let axe race it.
  await expect(page).toHaveTitle(/\S/);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "serious or critical accessibility violations",
  ).toEqual([]);
}
