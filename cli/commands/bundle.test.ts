import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readBundle } from "../../lib/bundle/read";
import { KEYWORD, plantSecrets, SECRETS } from "../../test-support/bundle/testing";
import { runMain as run } from "../../test-support/run-cli";
import { tempFolder } from "../../test-support/test-temp";

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

/** Every byte of an unpacked bundle, each zstd log decompressed by the real CLI, and every path. */
function seenIn(dir: string): string {
  const parts: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        parts.push(p, readFileSync(p, "latin1"));
        if (p.endsWith(".zstd"))
          try {
            parts.push(execFileSync("zstd", ["-dcq", p], { stdio: ["ignore", "pipe", "ignore"] }).toString("latin1"));
          } catch (error) {
            parts.push(String((error as { stdout?: Buffer }).stdout ?? ""));
          }
      }
    }
  };
  walk(dir);
  return parts.join("\n");
}

describe("oda-admin bundle redact", () => {
  it("redacts a bundle received unredacted, keeping the placeholders of an earlier map", async () => {
    const base = tempFolder("oda-bundle-cli-");
    const roots = await plantSecrets(base);
    const raw = join(base, "raw.tar.gz");
    const common = ["--home", roots.home, "--logs", roots.logs, "--all-chats", "--memory"];
    expect((await run("bundle", "create", ...common, "--no-redact", "-o", raw)).code).toBe(0);
    // A first pass without the keyword, then the keyword added with that pass's map.
    const first = join(base, "first.tar.gz");
    const once = await run("bundle", "redact", raw, "-o", first);
    expect(once.code, once.err).toBe(0);
    // An earlier map whose numbering a fresh pass would not give (support has been quoting <email-7>).
    const earlier = JSON.parse(readFileSync(`${first}.map.json`, "utf8"));
    for (const e of earlier.placeholders) if (e.value === SECRETS.email) e.placeholder = "<email-7>";
    writeFileSync(`${first}.map.json`, JSON.stringify(earlier));
    const second = join(base, "second.tar.gz");
    const twice = await run("bundle", "redact", raw, "-o", second, "--keyword", KEYWORD, "--map", `${first}.map.json`);
    expect(twice.code, twice.err).toBe(0);
    expect((await run("bundle", "verify", second)).code).toBe(0);
    const unpacked = join(base, "unpacked");
    await readBundle(second, unpacked);
    const seen = seenIn(unpacked);
    for (const key of ["email", "github", "openai", "linuxUser", "host", "ipv4"] as const)
      expect(seen, key).not.toContain(SECRETS[key]);
    expect(seen.toLowerCase()).not.toContain(KEYWORD);
    // The same value has the same placeholder in both maps.
    const mapOf = (f: string) =>
      (JSON.parse(readFileSync(`${f}.map.json`, "utf8")) as { placeholders: { value: string; placeholder: string }[] })
        .placeholders;
    const emailIn = (f: string) => mapOf(f).find((e) => e.value === SECRETS.email)?.placeholder;
    expect(emailIn(second)).toBe("<email-7>");
    expect(seen).toContain("<email-7>");
    expect(mapOf(second).some((e) => e.value === KEYWORD)).toBe(true);
    // The doctor report of the source went in, redacted.
    expect(readFileSync(join(unpacked, "doctor.txt"), "utf8")).toContain("problem");
  });
});
