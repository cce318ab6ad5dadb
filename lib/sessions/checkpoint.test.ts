import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCheckpoint } from "./checkpoint";
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
  it("the quick check accepts exactly what the schema accepts, with unknown keys dropped", async () => {
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
      }),
      { numRuns: 2000 },
    );
  });

  it("names the first field that does not fit, as the schema does", async () => {
    expect(await parseCheckpoint(JSON.stringify({ ...valid, log: { ...valid.log, bytes: -1 } }))).toEqual({
      error: "log.bytes: Too small: expected number to be >=0",
    });
    expect(await parseCheckpoint("{nope")).toEqual({ error: expect.stringMatching(/^not JSON \(/) });
  });
});
