import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

/**
 * `npm run screenshots`: the README's pictures, taken over demo data in
 * Debian's Chromium. Not part of `npm test`: they change only when the pages do.
 */
export default defineConfig({
  ...base,
  testDir: "scripts/screenshots",
  testMatch: "*.shots.ts",
  retries: 0,
  workers: 1,
  use: { ...base.use, viewport: { width: 1280, height: 860 } },
});
