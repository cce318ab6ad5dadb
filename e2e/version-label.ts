import type { Page } from "@playwright/test";
import { SOURCE_WORDS } from "../lib/memory/format";
import type { VersionSource } from "../lib/types";

/**
 * How the History page's diff names a version: when it was saved, as the version list shows that moment
 * (the reader's zone), and where it came from; never by its version file name.
 */
export async function versionLabel(page: Page, v: { name: string; source: VersionSource }): Promise<string> {
  const item = page
    .getByRole("list", { name: "Versions, newest first" })
    .getByRole("listitem", { name: `Version ${v.name}` });
  return `the version of ${await item.locator("time").textContent()} (${SOURCE_WORDS[v.source]})`;
}
