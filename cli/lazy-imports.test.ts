import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createChat } from "../test-support/chats/testing";

const root = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "oda-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A module hook that writes down every file the CLI's module graph loads.
const hooks = join(dir, "hooks.mjs");
writeFileSync(
  hooks,
  `import { appendFileSync } from "node:fs";
let log;
export function initialize(path) { log = path; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.startsWith("file:")) appendFileSync(log, result.url + "\\n");
  return result;
}
`,
);

/** Every file (absolute path) the module graph of `oda-admin ...argv` loads, run from the sources. */
function filesLoadedBy(...argv: string[]): string[] {
  const log = join(dir, `${argv.join("-").replace(/\W/g, "_")}.log`);
  writeFileSync(log, "");
  const register = `import { register } from "node:module"; register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: ${JSON.stringify(log)} });`;
  const run = `import { main } from "./cli/main.ts"; process.exitCode = await main(${JSON.stringify(argv)}, { out() {}, err() {} });`;
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "--import",
      pathToFileURL(join(root, "scripts", "node-shim", "register.mjs")).href,
      "--import",
      `data:text/javascript,${encodeURIComponent(register)}`,
      "--input-type=module",
      "-e",
      run,
    ],
    { cwd: root, encoding: "utf8" },
  );
  expect(result.stderr).toBe("");
  return readFileSync(log, "utf8")
    .split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => fileURLToPath(url));
}

/** The project's own modules (relative to the repository) loaded by `oda-admin ...argv`, run from the sources. */
function loadedBy(...argv: string[]): string[] {
  return filesLoadedBy(...argv)
    .filter((path) => path.startsWith(root) && !path.includes("/node_modules/"))
    .map((path) => path.slice(root.length));
}

describe("the CLI imports only what a command uses", () => {
  it("--help loads no command module, and of lib only the errors, the roots and the search roles", () => {
    const loaded = loadedBy("--help");
    expect(loaded).toContain("cli/main.ts");
    expect(loaded.filter((path) => path.startsWith("cli/commands/"))).toEqual([]);
    expect([...new Set(loaded.filter((path) => path.startsWith("lib/")))].sort()).toEqual(
      ["lib/errors.ts", "lib/roots.ts", "lib/search-index/extract.ts"].sort(),
    );
  });

  it("a refused option loads no command module and reads no settings: nothing is read or written", () => {
    const home = mkdtempSync(join(dir, "home-"));
    const loaded = loadedBy("memory", "list", "--home", home, "--worksapce", "foo");
    expect(loaded.filter((path) => path.startsWith("cli/commands/"))).toEqual([]);
    expect([...new Set(loaded.filter((path) => path.startsWith("lib/")))].sort()).toEqual(
      ["lib/errors.ts", "lib/roots.ts", "lib/search-index/extract.ts"].sort(),
    );
  });

  it("sessions list loads the sessions commands and none of the others", () => {
    const logs = mkdtempSync(join(dir, "logs-"));
    const commands = loadedBy("sessions", "list", "--logs", logs).filter((path) => path.startsWith("cli/commands/"));
    expect([...new Set(commands)]).toEqual(["cli/commands/sessions.ts"]);
  });

  it("sessions list on chats with checkpoints loads no schema library (zod is most of a new process's start-up)", async () => {
    const logs = mkdtempSync(join(dir, "logs-"));
    const chat = createChat(logs, { id: "c-1", cwd: null, created: "2026-11-29T18:00:00.000Z" });
    await chat.appendTurn({ user: "hi", assistant: "hello", ts: "2026-11-29T18:00:01.000Z" });
    await chat.close();
    const files = filesLoadedBy("sessions", "list", "--json", "--logs", logs, "--home", logs);
    expect(files.some((path) => path.endsWith("lib/chats/checkpoint.ts"))).toBe(true);
    expect(files.filter((path) => path.includes("/node_modules/zod/") || path.includes("checkpoint-schema"))).toEqual(
      [],
    );
  });
});
