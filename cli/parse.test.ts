/**
 * Each command's options parsed strictly, through the real `bin/oda-admin`: a
 * typo or a missing value is refused (exit 2) before anything is read or written.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../bin/oda-admin", import.meta.url));

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let dir: string;
let home: string;
let state: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "oda-cli-parse-"));
  home = join(dir, "home");
  state = join(dir, "state");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Every file and folder under `path`, or null when it does not exist. */
async function tree(path: string): Promise<string[] | null> {
  return existsSync(path) ? (await readdir(path, { recursive: true })).sort() : null;
}

describe("oda-admin refuses options its command does not take", () => {
  it("refuses a misspelt --workspace, naming it, with the command's usage, writing nothing", async () => {
    const create = ["memory", "create", "--home", home, "--state", state, "--title", "T", "--text", "X"];
    const refused = await run(...create, "--worksapce", "ws1", "--json");
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toMatch(
      /^oda-admin memory create has no option --worksapce\.\n\nUsage: oda-admin memory create/,
    );
    expect(refused.stderr).toContain("--workspace KEY");
    // Neither the home nor the state folder was made: the command never ran.
    expect(await tree(home)).toBeNull();
    expect(await tree(state)).toBeNull();

    // Spelt right (global options may come before the command words) it writes into the workspace's set.
    const created = await run("--home", home, "memory", "create", "--title", "T", "--text", "X", "--workspace=ws1");
    expect(created.code).toBe(0);
    expect(await tree(join(home, "memory", "workspaces", "ws1"))).toHaveLength(1);
  });

  it("refuses `memory list --worksapce` instead of listing the global set", async () => {
    const { code, stdout, stderr } = await run("memory", "list", "--home", home, "--worksapce", "foo");
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr.split("\n")[0]).toBe("oda-admin memory list has no option --worksapce.");
  });

  it("refuses another command's option and a switch given a value", async () => {
    const cwd = await run("memory", "list", "--home", home, "--cwd", "/srv");
    expect(cwd.code).toBe(2);
    expect(cwd.stderr.split("\n")[0]).toBe("oda-admin memory list has no option --cwd.");
    const json = await run("sessions", "list", "--logs", dir, "--json=yes");
    expect(json.code).toBe(2);
    expect(json.stderr).toMatch(/^oda-admin chats list: --json takes no value\.\n\nUsage: oda-admin chats list/);
  });

  it("refuses an option whose value is missing, or swallowed as the next option", async () => {
    const missing = await run("memory", "create", "--home", home, "--text", "X", "--title");
    expect(missing.code).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe(
      "oda-admin memory create: --title needs a value (write --title=VALUE for one that starts with a dash).",
    );
    const swallowed = await run("memory", "create", "--home", home, "--title", "--text", "X");
    expect(swallowed.code).toBe(2);
    expect(swallowed.stderr.split("\n")[0]).toContain("--title needs a value");
    expect(await tree(home)).toBeNull();
  });

  it("refuses an unknown option or command with no command's usage but the CLI's", async () => {
    const bogus = await run("--bogus");
    expect(bogus.code).toBe(2);
    expect(bogus.stderr).toMatch(/^oda-admin has no option --bogus\.\n\noda-admin — look after/);
    const command = await run("memroy", "list", "--home", home);
    expect(command.code).toBe(2);
    expect(command.stderr.split("\n")[0]).toBe("oda-admin has no command memroy list.");
  });
});
