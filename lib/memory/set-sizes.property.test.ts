import { readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeHome } from "../../test-support/memory/testing";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import { chatPayload, serialiseMemoryFile, tokenBudgets } from ".";
import { clearParseCache, parseCacheStats } from "./read-file";
import { clearSetSizes } from "./set-sizes";

/**
 * The workspace sizes kept between token checks (set-sizes.ts) against the
 * uncached computation (each chat's payload rendered from its files), after
 * any sequence of outside edits, including the ones no timestamp shows.
 */

beforeEach(() => {
  clearParseCache();
  clearSetSizes();
});
afterEach(() => clearSetSizes());

/** Every file gets this mtime (a whole second), so a same-size rewrite keeps size and mtime alike. */
const MTIME = new Date("2026-11-29T18:24:08.000Z");
const idOf = (i: number) => i.toString(16).padStart(8, "0");

function memoryFile(title: string, text: string, enabled = true): string {
  return serialiseMemoryFile({ title, enabled, source: "user" }, text);
}

function put(path: string, raw: string): void {
  writeFileSync(path, raw); // in place: same inode, O_TRUNC
  utimesSync(path, MTIME, MTIME);
}

const op = fc.oneof(
  fc.record({
    kind: fc.constant("same-size" as const),
    ws: fc.nat(3),
    file: fc.nat(3),
    letter: fc.constantFrom("x", "y", "z"),
  }),
  fc.record({ kind: fc.constant("toggle" as const), ws: fc.nat(3), file: fc.nat(3) }),
  fc.record({ kind: fc.constant("add" as const), ws: fc.nat(3), words: fc.nat(40) }),
  fc.record({ kind: fc.constant("remove" as const), ws: fc.nat(3), file: fc.nat(3) }),
  fc.record({ kind: fc.constant("rename-folder" as const), ws: fc.nat(3) }),
  fc.record({ kind: fc.constant("check" as const) }),
);

describe("workspace sizes kept between token checks", () => {
  it.each(fuzzSeeds(2501))(
    "always equal the sizes computed from the files, whatever was edited outside meanwhile ($label seed $seed)",
    async ({ label, seed }) => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
          clearSetSizes();
          const { home, cleanup } = await makeHome();
          try {
            await mkdir(join(home, "memory/global"), { recursive: true });
            put(join(home, "memory/global", idOf(999)), memoryFile("Global", "Reply in short bullet points."));
            const keys = ["ws-0", "ws-1", "ws-2", "ws-3"];
            let next = 0;
            for (const key of keys) {
              await mkdir(join(home, "memory/workspaces", key), { recursive: true });
              for (let i = 0; i < 3; i++)
                put(join(home, "memory/workspaces", key, idOf(next++)), memoryFile(`T${i}`, "aaaa"));
            }
            const fileOf = (ws: number, file: number) => {
              const key = keys[ws % keys.length] as string;
              const names = readdirSync(join(home, "memory/workspaces", key)).sort();
              return names.length ? join(home, "memory/workspaces", key, names[file % names.length] as string) : null;
            };
            const check = async () => {
              const cached = await tokenBudgets(home);
              clearParseCache();
              const reference = await Promise.all(
                [null, ...keys.slice().sort()].map(async (k) => ({
                  workspace: k,
                  tokens: (await chatPayload(home, k)).tokens,
                })),
              );
              expect(cached.map((b) => ({ workspace: b.workspace, tokens: b.tokens }))).toEqual(reference);
            };
            await check();
            for (const o of ops) {
              if (o.kind === "check") await check();
              else if (o.kind === "same-size" || o.kind === "toggle") {
                const path = fileOf(o.ws, o.file);
                if (!path) continue;
                const raw = readFileSync(path, "utf8");
                put(
                  path,
                  o.kind === "toggle"
                    ? raw.replace(/enabled: (true|false)/, (_m, v) => `enabled: ${v === "true" ? "false" : "true"}`)
                    : raw.replace(/\n(\S)(\S*)\n$/, (_m, _c, rest) => `\n${o.letter}${rest}\n`),
                );
              } else if (o.kind === "add") {
                const key = keys[o.ws % keys.length] as string;
                put(
                  join(home, "memory/workspaces", key, idOf(next++)),
                  memoryFile("Added", "word ".repeat(o.words + 1).trim()),
                );
              } else if (o.kind === "remove") {
                const path = fileOf(o.ws, o.file);
                if (path) rmSync(path);
              } else {
                // Swap two workspace folders' names: every key stays, each now holds the other's memories.
                const a = keys[o.ws % keys.length] as string;
                const b = keys[(o.ws + 1) % keys.length] as string;
                const dir = join(home, "memory/workspaces");
                renameSync(join(dir, a), join(dir, "swap"));
                renameSync(join(dir, b), join(dir, a));
                renameSync(join(dir, "swap"), join(dir, b));
              }
            }
            await check();
          } finally {
            await cleanup();
          }
        }),
        { numRuns: label === "fixed" ? 25 : 12, seed },
      );
    },
    120_000,
  );

  it("a second check reads no workspace file when none changed", async () => {
    const { home, cleanup } = await makeHome();
    try {
      for (const key of ["ws-a", "ws-b"]) {
        await mkdir(join(home, "memory/workspaces", key), { recursive: true });
        for (let i = 0; i < 5; i++) put(join(home, "memory/workspaces", key, idOf(i)), memoryFile(`T${i}`, "text"));
      }
      await mkdir(join(home, "memory/global"), { recursive: true });
      put(join(home, "memory/global", idOf(99)), memoryFile("Global", "text"));
      const first = await tokenBudgets(home);
      parseCacheStats.hits = 0;
      parseCacheStats.parsed = 0;
      expect(await tokenBudgets(home)).toEqual(first);
      // Only the global set's one file is looked at again.
      expect(parseCacheStats.hits + parseCacheStats.parsed).toBe(1);
    } finally {
      await cleanup();
    }
  });
});
