import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runMain as run } from "../test-support/run-cli";
import { GLOBAL_OPTIONS } from "./parse";
import { commands } from "./registry";

describe("the CLI's command table", () => {
  it("loads a run for every command it lists", async () => {
    for (const [name, entry] of Object.entries(commands)) {
      expect(typeof (await entry.load()), name).toBe("function");
    }
  });

  it("declares every option a command module reads on its commands, each with one type everywhere", async () => {
    const commandsDir = new URL("./commands/", import.meta.url);
    const runs = await Promise.all(Object.values(commands).map((entry) => entry.load()));
    for (const file of readdirSync(commandsDir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))) {
      const module: Record<string, unknown> = await import(new URL(file, commandsDir).href);
      const own = new Set(Object.values(module).flatMap((v) => (v && typeof v === "object" ? Object.values(v) : [])));
      const declared = new Set([
        ...Object.keys(GLOBAL_OPTIONS),
        ...Object.values(commands).flatMap((entry, i) => (own.has(runs[i]) ? Object.keys(entry.options ?? {}) : [])),
      ]);
      const source = readFileSync(new URL(file, commandsDir), "utf8");
      const read = [...source.matchAll(/flagString\(ctx, "([\w-]+)"\)|ctx\.flags(?:\.(\w+)|\["([\w-]+)"\])/g)];
      for (const m of read) expect(declared.has(m[1] ?? m[2] ?? m[3] ?? ""), `${file} reads ${m[0]}`).toBe(true);
    }
    const types = new Map<string, string>();
    for (const [name, entry] of Object.entries(commands)) {
      for (const [option, { type }] of Object.entries({ ...GLOBAL_OPTIONS, ...entry.options })) {
        // The one exception, as issue 29 spells it: `bundle create --redact KINDS` picks kinds, while
        // `chat export --redact` turns the bundle's redaction on (every kind) for one chat.
        if (option === "redact" && (name === "chat export" || name === "session export")) continue;
        expect(types.get(option) ?? type, `${name} --${option}`).toBe(type);
        types.set(option, type);
      }
    }
  });

  it("prints the package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(await run("--version")).toEqual({ code: 0, out: version, err: "" });
  });

  it("lists every flag of serve in its help", async () => {
    const { code, out } = await run("serve", "--help");
    expect(code).toBe(0);
    for (const flag of ["--home DIR", "--logs DIR", "--state DIR", "--port N", "--open", "--help"]) {
      expect(out).toContain(flag);
    }
  });

  it("refuses a port that is not one, before starting anything", async () => {
    const { code, err } = await run("serve", "--port", "80000", "--home", "/nonexistent");
    expect(code).toBe(2);
    expect(err).toBe("--port takes a port number from 0 to 65535 (0 picks a free one).");
  });
});
