import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KEYWORD, plantSecrets, SECRETS } from "../../lib/bundle/testing";
import { tempFolder } from "../../lib/test-temp";
import { runMain as run } from "../../test-support/run-cli";

describe("oda-admin bundle create / verify", () => {
  it("writes a bundle tar lists, a private map beside it, and verify accepts it", async () => {
    const base = tempFolder("oda-bundle-cli-");
    const roots = await plantSecrets(base);
    const file = join(base, "support.tar.gz");
    const created = await run(
      "bundle",
      "create",
      "--home",
      roots.home,
      "--logs",
      roots.logs,
      "--all-chats",
      "--memory",
      "--keyword",
      KEYWORD,
      "--keyword",
      "another",
      "-o",
      file,
      "--json",
    );
    expect(created.code).toBe(0);
    const doc = JSON.parse(created.out);
    expect(doc.manifest.scope).toMatchObject({
      chats: "all",
      memory: true,
      keywords: 2,
      redact: ["email", "home", "host", "ip", "key", "keyword"],
    });
    expect(doc.manifest.counts.replaced.keyword).toBeGreaterThan(0);
    const listing = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).split("\n");
    expect(listing[0]).toBe("manifest.json");
    expect(listing).toContain("doctor.json");
    expect(listing).toContain("doctor.txt");
    expect(listing).toContain("home/settings.json");
    expect(listing.join("\n")).not.toContain(SECRETS.email);
    expect(statSync(`${file}.map.json`).mode & 0o077).toBe(0);
    expect(readFileSync(`${file}.map.json`, "utf8")).toContain(SECRETS.email);

    const verified = await run("bundle", "verify", file);
    expect(verified.code).toBe(0);
    expect(verified.out).toMatch(/the manifest and all \d+ files check out/);
    // The redaction report: each kind with its counts and files, never a value.
    expect(verified.out).toMatch(/^ {2}email: \d+ values?, \d+ replacements? in \d+ files?: .*home\/settings\.json/m);
    expect(verified.out).toMatch(
      /^ {2}key: \d+ values?, \d+ replacements? in \d+ files?: .*home\/memory\/global\/0000000a/m,
    );
    for (const value of Object.values(SECRETS)) expect(verified.out).not.toContain(value);
    const json = await run("bundle", "verify", file, "--json");
    const report = JSON.parse(json.out).redaction as { kinds: { kind: string; values: number; files: string[] }[] };
    const email = report.kinds.find((k) => k.kind === "email");
    expect(email?.values).toBeGreaterThan(0);
    expect(email?.files).toContain("home/settings.json");
  });

  it("verify exits 1 naming the first bad file", async () => {
    const base = tempFolder("oda-bundle-cli-");
    const roots = await plantSecrets(base);
    const file = join(base, "support.tar.gz");
    expect(
      (await run("bundle", "create", "--home", roots.home, "--logs", roots.logs, "--all-chats", "-o", file)).code,
    ).toBe(0);
    // change one byte of home/settings.json inside the archive, keeping its size
    const dir = join(base, "x");
    execFileSync("mkdir", [dir]);
    execFileSync("tar", ["-xzf", file, "-C", dir]);
    const settings = join(dir, "home", "settings.json");
    const text = readFileSync(settings, "utf8");
    writeFileSync(settings, text.replace("1", "2"));
    const names = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).trim().split("\n");
    const bad = join(base, "bad.tar.gz");
    execFileSync("tar", ["-czf", bad, "-C", dir, "--no-recursion", ...names]);
    const verified = await run("bundle", "verify", bad);
    expect(verified.code).toBe(1);
    expect(verified.err).toBe("The bundle's home/settings.json was changed: its SHA-256 does not match the manifest.");
  });

  it("refuses unknown redaction kinds", async () => {
    const r = await run(
      "bundle",
      "create",
      "--logs",
      tmpdir(),
      "--redact",
      "home,phone",
      "-o",
      join(tmpdir(), "never.tar.gz"),
    );
    expect(r.code).toBe(2); // a bad option value is a usage error
    expect(r.err).toBe('"phone" is not a redaction kind; the kinds are home, host, email, ip, key.');
  });
});
