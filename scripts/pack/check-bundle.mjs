// The package check's support bundle part (issue 14): the INSTALLED CLI makes
// a bundle and verifies it, `oda-admin serve --bundle FILE` serves it at its own
// address with the banner and every write control disabled, and "Open bundle"
// on the Bundles page of a running installed dashboard opens it beside the
// live data. The pages are driven in
// Debian's Chromium (as the e2e tests are), since a save is a server action.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { waitFor } from "./processes.mjs";

/** The sentence a write gets while a bundle is shown (lib/bundle/messages.ts, kept in step by hand). */
const readOnly = (name) =>
  `This dashboard shows the support bundle ${name}, which is read-only: nothing in it can be changed.`;

/** Starts the installed `oda-admin serve` and resolves with its printed URL and a stop function. */
async function serve(odaAdmin, args) {
  const child = spawn(odaAdmin, ["serve", "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  const exited = new Promise((done) => child.once("exit", (code, signal) => done(code ?? signal)));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    assert.equal(await exited, 0, `serve's exit after SIGINT\n${err}`);
  };
  try {
    const [, url] = await waitFor(
      "the URL line",
      () => {
        if (child.exitCode !== null) throw new Error(`serve ended early (exit ${child.exitCode}):\n${err}`);
        return out.match(/^Oda Admin is ready: open (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{43})$/m);
      },
      120_000,
    );
    return { url, stop };
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
}

/**
 * Every page named, at the bundle's own address (`base` ends in `/b/<id>`), shows the banner with the
 * bundle's name; Save settings is offered disabled, described by the read-only sentence (the server's own
 * refusal of a forged save is an e2e test).
 */
async function checkReadOnly(page, base, name) {
  for (const path of ["", "/memory", "/chats", "/support/doctor"]) {
    await page.goto(`${base}${path}`);
    const banner = page.getByRole("note", { name: "Support bundle" });
    await banner.filter({ hasText: name }).waitFor({ timeout: 60_000 });
    await page.getByRole("heading", { level: 1 }).first().waitFor();
  }
  await page.goto(`${base}/memory/settings`);
  const save = page.getByRole("button", { name: "Save settings" });
  await save.waitFor({ timeout: 60_000 });
  assert.equal(await save.isDisabled(), true, "Save settings is disabled in a bundle");
  const described = await save.evaluate((b) =>
    (b.getAttribute("aria-describedby") ?? "")
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent ?? "")
      .join(" "),
  );
  assert.ok(described.includes(readOnly(name)), `Save settings says why it is disabled: ${described}`);
}

/** The address of the bundle's pages the page was sent to (`<origin>/b/<id>`). */
async function bundleBase(page) {
  await page.waitForURL(/\/b\/[a-z0-9-]+(\/|$)/, { timeout: 180_000 });
  const url = new URL(page.url());
  return `${url.origin}${url.pathname.match(/^\/b\/[a-z0-9-]+/)[0]}`;
}

/**
 * Runs the bundle checks against the installed CLI over `roots` (demo data
 * made by the installed generator); `tmp` is the check's private folder.
 */
export async function checkBundle({ odaAdmin, roots, tmp, ok }) {
  const file = join(tmp, "from-the-package.tar.gz");
  const made = spawnSync(odaAdmin, ["bundle", "create", ...roots, "--all-chats", "--memory", "-o", file, "--json"], {
    encoding: "utf8",
  });
  assert.equal(made.status, 0, `bundle create failed:\n${made.stderr}`);
  const report = JSON.parse(made.stdout);
  assert.ok(
    report.manifest.counts.chats > 0 && report.manifest.counts.memories > 0,
    "the bundle holds chats and memories",
  );
  const verified = spawnSync(odaAdmin, ["bundle", "verify", file], { encoding: "utf8" });
  assert.equal(verified.status, 0, `bundle verify failed:\n${verified.stderr}`);
  const listed = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
  assert.equal(listed.stdout.split("\n")[0], "manifest.json", "tar -tzf lists the bundle, manifest first");
  ok(`bundle create and verify from the package (${report.manifest.counts.files} files)`);

  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const served = await serve(odaAdmin, ["--bundle", file, "--state", join(tmp, "bundle-state")]);
    try {
      const page = await browser.newPage();
      // The root address of a server started on a bundle leads to the bundle's own pages.
      await page.goto(served.url);
      await checkReadOnly(page, await bundleBase(page), "from-the-package.tar.gz");
    } finally {
      await served.stop();
    }
    ok("serve --bundle: every page of the bundle under the banner, Save disabled with the read-only sentence");

    const running = await serve(odaAdmin, [...roots, "--state", join(tmp, "open-state")]);
    try {
      const page = await browser.newPage();
      await page.goto(running.url);
      const base = new URL(running.url).origin;
      await page.goto(`${base}/bundles`);
      await page.getByLabel("Bundle file on this computer").fill(file);
      await page.getByRole("button", { name: "Open bundle" }).click();
      // Opening verifies every checksum and unpacks first, then leads to the bundle's own address.
      await checkReadOnly(page, await bundleBase(page), "from-the-package.tar.gz");
      // The live pages stay where they were, without the banner.
      await page.goto(`${base}/memory`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      assert.equal(await page.getByRole("note", { name: "Support bundle" }).count(), 0, "live pages show no banner");
    } finally {
      await running.stop();
    }
    ok('"Open a bundle" in a running dashboard from the package: shown read-only at its own address, live unchanged');
  } finally {
    await browser.close();
  }
}
