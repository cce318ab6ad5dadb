import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expandTests, forgetStaleStatic } from "./stale-static.mjs";

type Mutant = { id: string; status: string; static?: boolean };

let root: string;
const incremental = () => join(root, "incremental.json");
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, ".."), { recursive: true });
  writeFileSync(join(root, path), text);
};
const mutants = (): Mutant[] => JSON.parse(readFileSync(incremental(), "utf8")).files["lib/a.ts"].mutants;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "stale-static-"));
  write("lib/a.test.ts", "test one");
  write("lib/z/b.test.ts", "test two");
  write("lib/z/b.ts", "not a test");
  const recorded: Mutant[] = [
    { id: "1", status: "Survived", static: true },
    { id: "2", status: "Killed", static: true },
    { id: "3", status: "Timeout", static: true },
    { id: "4", status: "Survived", static: false },
    { id: "5", status: "Survived" },
  ];
  writeFileSync(
    incremental(),
    JSON.stringify({
      files: { "lib/a.ts": { mutants: recorded } },
      testFiles: { "lib/a.test.ts": { source: "test one" }, "lib/z/b.test.ts": { source: "test two" } },
    }),
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("forgetStaleStatic", () => {
  it("keeps every result while the tests are those of the recorded run", () => {
    expect(forgetStaleStatic(root, incremental(), ["lib/a.test.ts", "lib/z/*.test.ts"])).toBe(0);
    expect(mutants().map((m) => m.id)).toEqual(["1", "2", "3", "4", "5"]);
  });

  it.each([
    ["a test file changed", () => write("lib/z/b.test.ts", "test two, stricter")],
    ["a test file added", () => write("lib/z/c.test.ts", "test three")],
    ["a test file gone", () => rmSync(join(root, "lib/a.test.ts"))],
  ])("forgets only the static mutants not killed when %s", (_, change) => {
    change();
    expect(forgetStaleStatic(root, incremental(), ["lib/a.test.ts", "lib/z/*.test.ts"])).toBe(1);
    expect(mutants().map((m) => m.id)).toEqual(["2", "3", "4", "5"]);
  });

  it("forgets them whatever the tests when told to", () => {
    expect(forgetStaleStatic(root, incremental(), ["lib/a.test.ts", "lib/z/*.test.ts"], true)).toBe(1);
    expect(mutants().map((m) => m.id)).toEqual(["2", "3", "4", "5"]);
  });

  it("does nothing without an incremental file", () => {
    rmSync(incremental());
    expect(forgetStaleStatic(root, incremental(), ["lib/a.test.ts"], true)).toBe(0);
  });
});

describe("expandTests", () => {
  it("takes a `*` in a file name, and a plain name only if it exists", () => {
    write("lib/z/b.test.tsx", "not matched");
    expect(expandTests(root, ["lib/z/*.test.ts", "lib/a.test.ts", "lib/none.test.ts", "none/*.test.ts"])).toEqual([
      "lib/z/b.test.ts",
      "lib/a.test.ts",
    ]);
  });
});
