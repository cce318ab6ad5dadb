import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_IDS, plantSecrets } from "../test-support/bundle/testing";
import { runMain as run } from "../test-support/run-cli";
import { tempFolder } from "../test-support/test-temp";

/** Every file below `dir`, relative to it, with its SHA-256. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), createHash("sha256").update(readFileSync(path)).digest("hex"));
  }
  return files;
}

describe("the read commands on a support bundle (--bundle FILE|DIR)", () => {
  let base: string;
  let file: string;
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  beforeAll(async () => {
    // Shared by every test below (tempFolder's are removed after each test).
    base = mkdtempSync(join(tmpdir(), "oda-bundle-read-"));
    const roots = await plantSecrets(base);
    file = join(base, "support.tar.gz");
    const created = await run(
      "bundle",
      "create",
      "--home",
      roots.home,
      "--logs",
      roots.logs,
      "--all-chats",
      "--memory",
      "-o",
      file,
    );
    expect(created.code).toBe(0);
  });

  it("doctor --bundle FILE --json is the bundle's own report, unpacked once into the admin state", async () => {
    const state = tempFolder("oda-bundle-state-");
    const own = JSON.parse(execFileSync("tar", ["-xzOf", file, "doctor.json"], { encoding: "utf8" }));
    const first = await run("doctor", "--bundle", file, "--state", state, "--json");
    expect(first.err).toMatch(/^oda-admin: checking and unpacking .*support\.tar\.gz/);
    expect(JSON.parse(first.out)).toEqual(own);
    expect(own.sections.flatMap((s: { problems: unknown[] }) => s.problems).length).toBeGreaterThan(0);
    expect(first.code).toBe(1);
    // Again: the unpacked copy is read, not a second one made.
    const again = await run("doctor", "--bundle", file, "--state", state, "--json");
    expect(again).toEqual({ code: 1, out: first.out, err: "" });
    expect(readdirSync(join(state, "bundles"))).toHaveLength(1);
    // The unpacked folder itself is a DIR --bundle takes; the text form names the bundle and its problems.
    const dir = join(state, "bundles", readdirSync(join(state, "bundles"))[0] as string);
    const text = await run("doctor", "--bundle", dir, "--state", tempFolder("oda-bundle-none-"));
    expect(text.code).toBe(1);
    const lines = text.out.split("\n");
    expect(lines[0]).toMatch(/^The support bundle support-\d+, as its computer found it on \d{4}-\d\d-\d\dT/);
    for (const section of own.sections as { name: string; problems: { path: string; message: string }[] }[])
      for (const p of section.problems) expect(lines).toContain(`  ${p.path}: ${p.message}`);
  });

  it("runs every read command on the bundle's roots and changes nothing in it", async () => {
    const state = tempFolder("oda-bundle-state-");
    const b = ["--bundle", file, "--state", state];
    const chats = await run("chats", "list", ...b, "--json");
    expect(chats.code).toBe(0);
    const ids = (JSON.parse(chats.out).chats as { id: string }[]).map((c) => c.id);
    expect(ids).toHaveLength(3);
    expect(ids).toContain(CHAT_IDS[2]);
    // The older spelling runs the same command.
    expect((await run("sessions", "list", ...b, "--json")).out).toBe(chats.out);
    const shown = await run("chat", "show", CHAT_IDS[2] as string, ...b, "--json");
    expect(shown.code).toBe(0);
    expect(shown.out).toContain("nothing private here");
    const found = await run("search", "private", ...b, "--json");
    expect(found.code).toBe(0);
    expect(found.out).toContain(CHAT_IDS[2]);
    const daily = await run("usage", "daily", ...b, "--json", "--tz", "UTC");
    expect(daily.code).toBe(0);
    const live = ["--home", join(base, "home"), "--logs", join(base, "logs"), "--state", tempFolder("oda-live-state-")];
    const liveDaily = await run("usage", "daily", ...live, "--json", "--tz", "UTC");
    expect(JSON.parse(daily.out).totals).toEqual(JSON.parse(liveDaily.out).totals);
    expect(JSON.parse(daily.out).totals.outputTokens).toBeGreaterThan(0);
    expect((await run("storage", ...b, "--json")).code).toBe(0);
    const list = await run("memory", "list", ...b, "--json");
    expect(list.code).toBe(0);
    expect(list.out).toContain("0000000a");
    expect((await run("memory", "show", "0000000a", ...b, "--json")).code).toBe(0);
    const history = await run("memory", "history", "0000000b", "--workspace", "projectfalconx-ws", ...b, "--json");
    expect(history.code).toBe(0);

    const [dir] = readdirSync(join(state, "bundles"));
    const unpacked = join(state, "bundles", dir as string, "bundle");
    const manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
    const expected = new Map<string, string>(
      manifest.files.map((f: { path: string; sha256: string }) => [f.path, f.sha256]),
    );
    const now = tree(unpacked);
    now.delete("manifest.json");
    expect(now).toEqual(expected);
  });

  it("refuses --bundle on a command that changes files, before anything is unpacked", async () => {
    const state = tempFolder("oda-bundle-state-");
    const set = await run("memory", "set", "0000000a", "--off", "--bundle", file, "--state", state);
    expect(set.code).toBe(2);
    expect(set.err.split("\n")[0]).toBe(
      "oda-admin memory set changes files, and a support bundle is read-only: --bundle is for the commands that only read: doctor, memory list, memory show, memory history, memory payload, memory lint, chats list, chat show, search, index refresh, index status, usage daily, usage weekly, usage monthly, usage chats, usage folders, storage.",
    );
    const repair = await run("repair", "apply", "--all", "--bundle", file, "--state", state);
    expect(repair.err.split("\n")[0]).toMatch(
      /^oda-admin repair apply changes files, and a support bundle is read-only/,
    );
    expect(existsSync(join(state, "bundles"))).toBe(false);
    const both = await run("memory", "list", "--bundle", file, "--home", base, "--state", state);
    expect(both).toMatchObject({ code: 2 });
    expect(both.err).toBe(
      "--bundle reads the bundle's own Oda home and log folder: give --bundle, or --home and --logs, not both.",
    );
    expect(existsSync(join(state, "bundles"))).toBe(false);
  });

  it("refuses a path that is not a bundle with a sentence, unpacking nothing", async () => {
    const state = tempFolder("oda-bundle-state-");
    const notOne = await run("doctor", "--bundle", "/etc/passwd", "--state", state);
    expect(notOne.code).toBe(1);
    expect(notOne.err).toMatch(/^The bundle cannot be read as a \.tar\.gz archive/);
    const folder = await run("doctor", "--bundle", base, "--state", state);
    expect(folder.err).toBe(
      `${base} is a folder but not an unpacked bundle (it has no bundle/manifest.json): give the bundle's file, or its folder under <state>/bundles/.`,
    );
    expect(existsSync(join(state, "bundles"))).toBe(false);
  });
});
