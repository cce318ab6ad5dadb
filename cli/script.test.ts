/**
 * The CLI as a script sees it, through the real `bin/oda-admin` in a child
 * process: exit codes (0 done, 1 refused or problems found, 2 usage), extra
 * arguments, group help, progress only on a terminal, a closed pipe, --version.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createChat } from "../test-support/chats/testing";
import { memoryText, putFile } from "../test-support/memory/testing";
import { tempFolder } from "../test-support/test-temp";
import { main } from "./main";
import { EXIT_HELP } from "./parse";
import { commands } from "./registry";

const bin = fileURLToPath(new URL("../bin/oda-admin", import.meta.url));
// No root reaches a run from the environment of whoever runs the tests.
const env: NodeJS.ProcessEnv = { ...process.env };
for (const name of ["ODA_HOME", "ODA_LOG_DIR", "ODA_ADMIN_STATE"]) delete env[name];

/** `oda-admin …` in this process, for what needs no process of its own (help texts). */
async function runHere(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (t) => out.push(`${t}\n`), err: (t) => err.push(`${t}\n`) });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { encoding: "utf8", env }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function homeWith(...ids: string[]): Promise<string> {
  const home = join(tempFolder("oda-cli-script-"), "home");
  for (const id of ids) await putFile(home, `memory/global/${id}`, memoryText(`Memory ${id}`, "Some text."));
  return home;
}

describe("oda-admin's exit codes", () => {
  it("refuses doctor with nothing to look at, instead of finding no problem", async () => {
    const human = await run("doctor");
    expect(human).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "Nothing to check: give the Oda home with --home DIR or ODA_HOME, the log folder with --logs DIR or ODA_LOG_DIR, or both.\n",
    });
    const json = await run("doctor", "--json");
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "bad_input" } });
    // With a home it checks it (an empty one has no problem).
    expect(await run("doctor", "--home", await homeWith())).toMatchObject({ code: 0, stdout: "No problems found.\n" });
  });

  it("refuses arguments a command does not take, naming them, and changes nothing", async () => {
    const home = await homeWith("d0000001", "d0000003");
    const file = join(home, "memory/global/d0000001");
    const before = readFileSync(file, "utf8");
    const history = await run("memory", "history", "d0000001", "d0000003", "deadbee0", "--home", home);
    expect(history.code).toBe(2);
    expect(history.stdout).toBe("");
    expect(history.stderr).toMatch(
      /^oda-admin memory history takes ID only: "d0000003" and "deadbee0" are extra\.\n\nUsage: oda-admin memory history ID \[options\]/,
    );
    expect(readFileSync(file, "utf8")).toBe(before);
    const list = await run("memory", "list", "everything", "--home", home);
    expect(list.code).toBe(2);
    expect(list.stderr.split("\n")[0]).toBe('oda-admin memory list takes no arguments: "everything" is extra.');
    // A command that takes several ids on purpose checks each of them.
    const restore = await run("memory", "restore", "d0000001", "v1", "v2", "--home", home);
    expect(restore.stderr.split("\n")[0]).toBe('"v1" is not a memory id: an id is eight characters, 0-9 and a-f.');
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("exits 2 on every usage error, 1 on a refusal, 0 when done", async () => {
    const home = await homeWith("d0000001");
    // A missing argument, a missing root, an unknown option, a bad option value: usage.
    expect(await run("memory", "show", "--home", home)).toMatchObject({ code: 2, stderr: "Give the memory's id.\n" });
    expect(await run("memory", "show", "d0000001")).toMatchObject({
      code: 2,
      stderr: "No Oda home is given: pass --home DIR or set ODA_HOME.\n",
    });
    expect((await run("memory", "list", "--home", home, "--bogus")).code).toBe(2);
    expect((await run("serve", "--port", "80000", "--home", home)).code).toBe(2);
    expect((await run("memory", "set", "d0000001", "--home", home)).code).toBe(2);
    // A refusal of what was asked: 1.
    expect((await run("memory", "show", "deadbeef", "--home", home)).code).toBe(1);
    expect((await run("memory", "show", "d0000001", "--home", home)).code).toBe(0);
  });

  it("prints the exit codes in --help", async () => {
    const top = await run("--help");
    expect(top.code).toBe(0);
    expect(top.stdout).toContain(EXIT_HELP);
    expect((await run("doctor", "--help")).stdout).toContain(EXIT_HELP);
    // The README prints the same table.
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    expect(readme).toContain(EXIT_HELP);
  });
});

describe("oda-admin's help", () => {
  it("shows a group's commands for `oda-admin <group> --help`", async () => {
    const groups = [
      ...new Set(Object.keys(commands).flatMap((name) => (name.includes(" ") ? [name.split(" ")[0]] : []))),
    ];
    expect(groups.sort()).toEqual(["bundle", "chat", "chats", "index", "memory", "notes", "repair", "usage"]);
    for (const group of groups as string[]) {
      const { code, stdout, stderr } = await runHere(group, "--help");
      expect({ group, code, stderr }).toEqual({ group, code: 0, stderr: "" });
      expect(stdout.split("\n")[0]).toBe(
        `Usage: oda-admin ${group} <command> [options]   (oda-admin ${group} <command> --help: its options)`,
      );
      const own = Object.keys(commands).filter((name) => name.startsWith(`${group} `));
      for (const name of own) expect(stdout).toContain(`  ${name.padEnd(18)}${commands[name]?.summary}`);
      // Only that group's commands.
      expect(stdout).not.toContain("  doctor ");
    }
    // An older spelling's group shows its command's.
    const older = await runHere("sessions", "--help");
    expect(older.code).toBe(0);
    expect(older.stdout.split("\n")[0]).toBe(
      "Usage: oda-admin chats <command> [options]   (oda-admin chats <command> --help: its options)",
    );
    const bare = await runHere("repair");
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/^oda-admin repair needs one of its commands\.\n\nUsage: oda-admin repair <command>/);
    const typo = await runHere("memory", "lsit");
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^oda-admin has no command memory lsit\.\n\nUsage: oda-admin memory <command>/);
  });

  it("writes every command's help in one style", async () => {
    for (const name of Object.keys(commands)) {
      const { code, stdout } = await runHere(...name.split(" "), "--help");
      expect(code, name).toBe(0);
      expect(stdout.split("\n")[0], name).toMatch(new RegExp(`^Usage: oda-admin ${name}( |$)`));
      expect(stdout, name).toContain("\nEvery command takes:\n");
      expect(stdout.endsWith(`${EXIT_HELP}\n`), name).toBe(true);
    }
  });

  it("prints the version as JSON with --json", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const { code, stdout } = await runHere("--version", "--json");
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ ok: true, version });
  });
});

/** A log folder with one chat of `messages` messages after its header, and its state folder. */
async function logsWith(id: string, messages: number): Promise<{ logs: string; state: string }> {
  const dir = tempFolder("oda-cli-script-");
  const logs = join(dir, "logs");
  await mkdir(logs);
  const w = createChat(logs, { id, cwd: "/srv/app", created: "2026-11-20T09:00:00.000Z" });
  await w.appendEvents(
    Array.from({ length: messages }, (_, i) => ({
      type: "message",
      ts: "2026-11-20T09:01:00.000Z",
      role: i % 2 ? "assistant" : "user",
      content: [{ type: "text", text: `question ${i}` }],
    })),
  );
  await w.close();
  return { logs, state: join(dir, "state") };
}

describe("oda-admin in a pipe", () => {
  it("prints no progress when standard error is not a terminal, with or without --json", async () => {
    const { logs, state } = await logsWith("c-progress", 2);
    for (const json of [["--json"], []]) {
      rmSync(state, { recursive: true, force: true });
      const refresh = await run("index", "refresh", "--logs", logs, "--state", state, ...json);
      expect(refresh.code).toBe(0);
      expect(refresh.stderr).toBe("");
      const search = await run("search", "question", "--logs", logs, "--state", state, ...json);
      expect(search.stderr).toBe("");
    }
  });

  it("shows progress on a terminal, but not with --json", async () => {
    const { logs, state } = await logsWith("c-tty", 2);
    // `script` runs the CLI with a terminal as its standard output and error, and copies what it shows.
    const onTerminal = (...args: string[]) =>
      execFileSync("script", ["-qefc", [process.execPath, bin, ...args].map((a) => `'${a}'`).join(" "), "/dev/null"], {
        encoding: "utf8",
        env,
      });
    expect(onTerminal("index", "refresh", "--logs", logs, "--state", state)).toMatch(
      /indexing \[#{30}\] 100% {2}1 \/ 1 chats/,
    );
    rmSync(state, { recursive: true, force: true });
    const json = onTerminal("index", "refresh", "--logs", logs, "--state", state, "--json");
    expect(json).not.toContain("indexing");
    expect(JSON.parse(json)).toMatchObject({ ok: true, refresh: { added: 1 } });
  });

  it("stops at once when its reader closes the pipe", async () => {
    const { logs } = await logsWith("c-long", 20_000);
    const child = spawn(
      process.execPath,
      [bin, "session", "show", "c-long", "--raw", "--count", "100000", "--logs", logs],
      {
        env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    // `| head -1`: the first line read, the pipe closed.
    const [first] = (await once(child.stdout, "data")) as [Buffer];
    expect(JSON.parse(first.toString().split("\n")[0] as string)).toMatchObject({ type: "session", id: "c-long" });
    child.stdout.destroy();
    const [code] = await once(child, "exit");
    // Stopped at the closed pipe (as a tool killed by SIGPIPE: 141), not after printing every line into it.
    expect({ code, stderr }).toEqual({ code: 141, stderr: "" });
  });
});
