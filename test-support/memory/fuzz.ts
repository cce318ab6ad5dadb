/**
 * The memory fuzz module (fuzz convention, `fuzz<Name>(runs, seed)`): random
 * memory files (random bytes, BOMs, CRLF, huge, missing and duplicate keys,
 * YAML aliases and tags, invalid UTF-8, sizes at and over fileMaxBytes),
 * random names in a set folder, special files (FIFOs) and random
 * `settings.json` go into a real home; the set is listed and the settings
 * read. Every memory-named file must come back either parsed or with exactly
 * one of the contract's problem sentences; nothing may throw or hang.
 */
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { listSet, readSettings } from "../../lib/memory/index";
import { isMemoryId } from "../../lib/memory/names";
import { makeHome } from "./testing";

const PROBLEM_SENTENCES = [
  /^The file is larger than \d+ bytes\.$/,
  /^The file cannot be read: .+$/,
  /^The file does not start with a --- frontmatter block\.$/,
  /^The frontmatter is not valid YAML: [^\n]+$/,
  /^The frontmatter fields (title|enabled|source|sessionId|created|updated)(, (title|enabled|source|sessionId|created|updated))* are missing or invalid\.$/,
  /^The memory is longer than \d+ characters or its title longer than \d+; shorten it in the file\.$/,
];

const line = fc.oneof(
  fc.constantFrom(
    "title: T",
    "title: T",
    "enabled: true",
    "source: user",
    "source: ai",
    "enabled: yes",
    "title: &a x",
    "other: *a",
    "title: !!binary aGk=",
    "x: !custom 1",
    "created: 2026-11-29T18:24:08.123Z",
    "updated: not a date",
    "sessionId: 12",
    "title: [a, b]",
    "title: |\n  two\n  lines",
    "? complex\n: key",
    "- a list",
    "title: 'unterminated",
    "{",
  ),
  fc.string({ maxLength: 40 }).map((s) => `k${s.replace(/\n/g, "")}: ${s}`),
);

const body = fc.oneof(fc.string({ maxLength: 300 }), fc.constant("x".repeat(2100)), fc.constant(""));

const memoryFile = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc
    .record({
      bom: fc.boolean(),
      crlf: fc.boolean(),
      open: fc.constantFrom("---", "--- ", "", "----"),
      close: fc.constantFrom("---", "", "...", "--- x"),
      lines: fc.array(line, { maxLength: 8 }),
      text: body,
      badUtf8: fc.boolean(),
    })
    .map((f) => {
      const eol = f.crlf ? "\r\n" : "\n";
      const text = `${f.bom ? "\uFEFF" : ""}${f.open}${eol}${f.lines.join(eol)}${eol}${f.close}${eol}${eol}${f.text}${eol}`;
      const bytes = Buffer.from(text, "utf8");
      return f.badUtf8 ? Buffer.concat([bytes, Buffer.from([0xc3, 0x28, 0xff])]) : new Uint8Array(bytes);
    }),
  fc.integer({ min: 65_530, max: 65_540 }).map((n) => new Uint8Array(Buffer.alloc(n, 0x61))),
);

const entry = fc.record({
  name: fc.oneof(
    fc.integer({ min: 0, max: 0xffffffff }).map((n) => n.toString(16).padStart(8, "0")),
    fc.string({ minLength: 1, maxLength: 12 }),
  ),
  kind: fc.constantFrom("file", "file", "file", "file", "fifo", "folder"),
  data: memoryFile,
});

const settingsJson = fc.oneof(
  fc.constant(null),
  fc.string({ maxLength: 60 }),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ memory: v })),
  fc.constant("FIFO"),
);

/** The memory fuzz: `runs` homes of up to six entries each. Throws, with the input, on any broken rule. */
export async function fuzzMemory(runs: number, seed?: number): Promise<{ inputs: number }> {
  const { home, cleanup } = await makeHome();
  let inputs = 0;
  try {
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 6 }), settingsJson, async (entries, settings) => {
        const folder = join(home, "memory", "global");
        await rm(home, { recursive: true, force: true });
        await mkdir(folder, { recursive: true });
        if (settings === "FIFO") execFileSync("mkfifo", [join(home, "settings.json")]);
        else if (settings !== null) await writeFile(join(home, "settings.json"), settings);
        const ids = new Set<string>();
        for (const e of entries) {
          if (/[/\0]/.test(e.name) || e.name === "." || e.name === ".." || ids.has(e.name)) continue;
          ids.add(e.name);
          inputs++;
          const path = join(folder, e.name);
          if (e.kind === "fifo") execFileSync("mkfifo", [path]);
          else if (e.kind === "folder") await mkdir(path);
          else await writeFile(path, e.data);
        }
        const read = Promise.all([listSet(home, null), readSettings(home)]);
        const hang = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("reading the set hung for 30 s")), 30_000).unref(),
        );
        const [set] = await Promise.race([read, hang]);
        for (const id of [...ids].filter(isMemoryId)) {
          const parsed = set.memories.filter((m) => m.id === id).length;
          const problems = set.problems.filter((p) => p.id === id);
          if (parsed + problems.length !== 1) throw new Error(`${id} is listed ${parsed + problems.length} times`);
          for (const p of problems)
            if (PROBLEM_SENTENCES.filter((r) => r.test(p.message)).length !== 1)
              throw new Error(`${id}: not one contract sentence: ${JSON.stringify(p.message)}`);
        }
      }),
      { numRuns: runs, seed, endOnFailure: true },
    );
  } finally {
    await cleanup();
  }
  return { inputs };
}
