// e2e specs import lib barrels that import "server-only": an empty module outside Next.
import "./scripts/node-shim/register.mjs";
import { defineConfig, devices } from "@playwright/test";

const CI = Boolean(process.env.CI);

/**
 * End-to-end tests in Debian's Chromium (no browser download works here).
 * Each test starts its own production server over its own temp Oda home
 * (e2e/fixtures.ts); `npm test` builds the app once before.
 */
export default defineConfig({
  testDir: "e2e",
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [["list"]] : [["list"]],
  use: {
    ...devices["Desktop Chrome"],
    trace: CI ? "retain-on-failure" : "on-first-retry",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
});
