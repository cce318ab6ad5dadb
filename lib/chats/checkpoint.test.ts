import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import { tempFolder } from "../../test-support/test-temp";
import { acceptCheckpoint, checkpointDetails, hashLogTail, parseCheckpoint, readCheckpoint } from "./checkpoint";
import { ZCheckpoint } from "./checkpoint-schema";

const valid = {
  cacheFormat: 1,
  identity: { id: "c1", created: "2026-11-29T18:00:00.000Z", cwd: "/home/ana", continues: null },
  log: { name: "session.v4.jsonl.zstd", bytes: 1743, tailSha256: "a".repeat(64) },
  checkpointAt: "2026-11-29T18:01:00.000Z",
  details: {
    title: "Greeting",
    messages: 4,
    lastActivity: "2026-11-29T18:01:00.000Z",
    model: null,
    inputTokens: 10,
    outputTokens: 3.5,
  },
};

/** What the schema alone says about a file's text. */
function bySchema(text: string): unknown {
  const parsed = ZCheckpoint.safeParse(JSON.parse(text));
  return parsed.success ? { checkpoint: parsed.data } : { error: expect.any(String) };
}

const odd = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constant(2 ** 60),
  fc.string({ maxLength: 4 }),
  fc.constant("f".repeat(64)),
  fc.constant("F".repeat(64)),
  fc.constant(null).map(() => []),
  fc.constant(null).map(() => ({})),
);

describe("checkpoint files", () => {
  it.each(fuzzSeeds(2006))(
    "the quick check accepts exactly what the schema accepts, with unknown keys dropped ($label seed $seed)",
    async ({ label, seed }) => {
      const paths = [
        ["cacheFormat"],
        ["checkpointAt"],
        ["identity"],
        ...["id", "created", "cwd", "continues"].map((k) => ["identity", k]),
        ["log"],
        ...["name", "bytes", "tailSha256"].map((k) => ["log", k]),
        ["details"],
        ...["title", "messages", "lastActivity", "model", "inputTokens", "outputTokens"].map((k) => ["details", k]),
        ["extra"],
        ["details", "extra"],
      ];
      await fc.assert(
        fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...paths), odd), { maxLength: 3 }), async (edits) => {
          const doc: Record<string, unknown> = structuredClone(valid);
          for (const [path, value] of edits) {
            const parent = path.length === 2 ? doc[path[0] as string] : doc;
            if (parent && typeof parent === "object")
              (parent as Record<string, unknown>)[path[path.length - 1] as string] = value;
          }
          const text = JSON.stringify(doc);
          expect(await parseCheckpoint(text)).toEqual(bySchema(text));
          // The quick check itself, not only the answer: it takes every document the schema takes (else each
          // would pay for the schema), as the schema returns it, and nothing else.
          const schema = ZCheckpoint.safeParse(JSON.parse(text));
          expect(acceptCheckpoint(JSON.parse(text))).toEqual(schema.success ? schema.data : null);
        }),
        { numRuns: label === "fixed" ? 2000 : 1000, seed },
      );
    },
  );

  it("names the first field that does not fit, as the schema does", async () => {
    expect(await parseCheckpoint(JSON.stringify({ ...valid, log: { ...valid.log, bytes: -1 } }))).toEqual({
      error: "log.bytes: Too small: expected number to be >=0",
    });
    expect(await parseCheckpoint("{nope")).toEqual({ error: expect.stringMatching(/^not JSON \(/) });
  });
});

describe("checkpoint files at the quick check's edges", () => {
  it("the quick check takes every nullable field null, counts of 0 and the largest safe count, dropping unknown keys", () => {
    const nulls = {
      ...valid,
      identity: { id: "c1", created: null, cwd: null, continues: null },
      details: { ...valid.details, title: null, lastActivity: null, model: null },
    };
    expect(acceptCheckpoint(nulls)).toEqual(nulls);
    const strings = {
      ...valid,
      identity: { ...valid.identity, continues: "c0" },
      details: { ...valid.details, model: "m" },
    };
    expect(acceptCheckpoint(strings)).toEqual(strings);
    const edges = {
      ...valid,
      log: { ...valid.log, bytes: Number.MAX_SAFE_INTEGER, extra: 1 },
      details: { ...valid.details, messages: 0, inputTokens: 0, outputTokens: 0.5 },
      extra: true,
    };
    expect(acceptCheckpoint(edges)).toEqual(ZCheckpoint.parse(edges));
    expect(acceptCheckpoint({ ...valid, log: { ...valid.log, bytes: 2 ** 53 } })).toBeNull();
    expect(acceptCheckpoint({ ...valid, details: { ...valid.details, messages: 1.5 } })).toBeNull();
    expect(acceptCheckpoint({ ...valid, details: { ...valid.details, inputTokens: -1 } })).toBeNull();
    expect(acceptCheckpoint({ ...valid, details: { ...valid.details, outputTokens: "3" } })).toBeNull();
    expect(acceptCheckpoint({ ...valid, identity: [] })).toBeNull();
    expect(acceptCheckpoint({ ...valid, log: null })).toBeNull();
    expect(acceptCheckpoint({ ...valid, cacheFormat: 2 })).toBeNull();
    expect(acceptCheckpoint({ ...valid, checkpointAt: 1 })).toBeNull();
    expect(acceptCheckpoint([valid])).toBeNull();
    // An array whose text is 64 hex digits is no hash (the pattern alone would take it).
    expect(acceptCheckpoint({ ...valid, log: { ...valid.log, tailSha256: ["a".repeat(64)] } })).toBeNull();
  });

  it("names the file itself when the whole document is not an object", async () => {
    expect(await parseCheckpoint("5")).toEqual({ error: expect.stringMatching(/^the file: /) });
  });

  const text = (doc: unknown) => JSON.stringify(doc);
  const withLog = (log: Record<string, unknown>) => text({ ...valid, log: { ...valid.log, ...log } });
  const withDetails = (details: Record<string, unknown>) =>
    text({ ...valid, details: { ...valid.details, ...details } });

  it("refuses token counts that JSON reads as Infinity, as the schema does", async () => {
    for (const key of ["inputTokens", "outputTokens"]) {
      const doc = withDetails({ [key]: 1 }).replace(`"${key}":1`, `"${key}":1e999`);
      expect(JSON.parse(doc).details[key]).toBe(Number.POSITIVE_INFINITY);
      expect(await parseCheckpoint(doc)).toEqual({ error: expect.stringMatching(new RegExp(`^details\\.${key}: `)) });
      expect(await parseCheckpoint(doc)).toEqual(bySchema(doc));
    }
  });

  it("takes a tail hash of exactly 64 lower-case hex digits, nothing before or after", async () => {
    expect(await parseCheckpoint(withLog({ tailSha256: "0".repeat(64) }))).toMatchObject({ checkpoint: {} });
    for (const bad of [`x${"a".repeat(64)}`, `${"a".repeat(64)}x`, "a", "a".repeat(63), "a".repeat(65)]) {
      const doc = withLog({ tailSha256: bad });
      expect(await parseCheckpoint(doc)).toEqual({ error: expect.stringMatching(/^log\.tailSha256: /) });
    }
  });

  it("takes 0 as a count and an amount, and nothing negative", async () => {
    expect(await parseCheckpoint(withLog({ bytes: 0 }))).toMatchObject({ checkpoint: { log: { bytes: 0 } } });
    expect(await parseCheckpoint(withDetails({ messages: 0, inputTokens: 0, outputTokens: 0 }))).toMatchObject({
      checkpoint: { details: { messages: 0, inputTokens: 0, outputTokens: 0 } },
    });
    expect(await parseCheckpoint(withDetails({ inputTokens: -0.5 }))).toEqual({ error: expect.any(String) });
    expect(await parseCheckpoint(withDetails({ messages: -1 }))).toEqual({ error: expect.any(String) });
  });
});

describe("readCheckpoint", () => {
  it("reads a file, answers null when there is none and an error for one that cannot be read", async () => {
    const dir = tempFolder("oda-ckpt-read-");
    const path = join(dir, "session.cache.json");
    expect(await readCheckpoint(path)).toBeNull();
    writeFileSync(path, JSON.stringify(valid));
    expect(await readCheckpoint(path)).toEqual({ checkpoint: valid });
    // Larger than the first read's 64 KiB: read whole all the same.
    const big = { ...valid, details: { ...valid.details, title: "é".repeat(50_000) } };
    writeFileSync(path, JSON.stringify(big));
    expect(await readCheckpoint(path)).toEqual({ checkpoint: big });
    const folder = join(dir, "folder.json");
    mkdirSync(folder);
    expect(await readCheckpoint(folder)).toEqual({ error: expect.stringContaining("is a folder") });
  });

  it("hashLogTail closes what it opens", () => {
    const path = join(tempFolder("oda-ckpt-fd-"), "log");
    writeFileSync(path, "x".repeat(5000));
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 50; i++) hashLogTail(path, 5000);
    expect(open()).toBe(before);
  });

  it("readCheckpoint gives the system's sentence, marked system, for a path it cannot read (ENOTDIR)", async () => {
    const dir = tempFolder("oda-ckpt-sys-");
    writeFileSync(join(dir, "chat"), "a file where the chat folder should be");
    const path = join(dir, "chat", "session.cache.json");
    expect(await readCheckpoint(path)).toEqual({
      error: `${path} cannot be read: a part of its path is no longer a folder (the system answered "not a directory", ENOTDIR). It was probably replaced meanwhile; run the command again to see the folder as it is now.`,
      system: true,
    });
  });

  it("readCheckpoint closes what it opens for a checkpoint over 64 KiB (the second read)", async () => {
    const path = join(tempFolder("oda-ckpt-fd-"), "session.cache.json");
    const big = { ...valid, details: { ...valid.details, title: "x".repeat(70_000) } };
    writeFileSync(path, JSON.stringify(big));
    const open = () => readdirSync("/proc/self/fd").length;
    const before = open();
    for (let i = 0; i < 20; i++) expect(await readCheckpoint(path)).toEqual({ checkpoint: big });
    expect(open()).toBe(before);
  });
});

describe("checkpointDetails", () => {
  it("keeps the details and names the last model used, or none", () => {
    const details = {
      title: "t",
      firstActivity: "a",
      lastActivity: "b",
      messages: 3,
      models: ["m1", "m2"],
      inputTokens: 5,
      outputTokens: 7,
    };
    expect(checkpointDetails(details)).toEqual({
      title: "t",
      messages: 3,
      lastActivity: "b",
      model: "m2",
      inputTokens: 5,
      outputTokens: 7,
    });
    expect(checkpointDetails({ ...details, models: [] }).model).toBeNull();
  });
});
