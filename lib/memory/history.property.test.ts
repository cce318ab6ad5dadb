import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeClock, makeHome } from "../../test-support/memory/testing";
import { fuzzSeeds } from "../../test-support/test-fuzz";
import { changeMemory, createMemory, listVersions, readMemory, restoreVersion, setEnabled, writeSettings } from ".";

type Op = { kind: "text"; text: string } | { kind: "toggle" } | { kind: "restore"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("text" as const), text: fc.constantFrom("a", "b", "c", "d", "e") }),
  fc.record({ kind: fc.constant("toggle" as const) }),
  fc.record({ kind: fc.constant("restore" as const), pick: fc.nat() }),
);

const keyOf = (v: { title?: string; text?: string; enabled?: boolean }) => JSON.stringify([v.title, v.text, v.enabled]);

describe("history against a simple model", () => {
  it.each(fuzzSeeds(4003))(
    "keeps the newest N, no duplicate content, every replaced state until it ages out ($label seed $seed)",
    async ({ label, seed }) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(op, { minLength: 1, maxLength: 14 }),
          fc.integer({ min: 2, max: 5 }),
          fc.constantFrom(0, 1, 7),
          async (ops, kept, step) => {
            const { home, cleanup } = await makeHome();
            try {
              await writeSettings(home, { versionsKept: kept });
              const now = makeClock("2026-11-29T18:24:08.123Z", step);
              const id = (await createMemory(home, null, { title: "T", text: "start" }, { now })).memory!.id;
              let current = { title: "T", text: "start", enabled: true };
              let model: string[] = []; // content keys, newest first
              for (const o of ops) {
                let next = current;
                if (o.kind === "text") {
                  const r = await changeMemory(home, null, id, { text: o.text }, { now });
                  next = { ...current, text: o.text };
                  expect(r.changed).toBe(o.text !== current.text);
                } else if (o.kind === "toggle") {
                  await setEnabled(home, null, id, !current.enabled, { now });
                  next = { ...current, enabled: !current.enabled };
                } else {
                  const versions = await listVersions(home, null, id);
                  if (!versions.length) continue;
                  const v = versions[o.pick % versions.length]!;
                  const r = await restoreVersion(home, null, id, v.name, { now });
                  next = { title: v.title!, text: v.text!, enabled: v.enabled! };
                  expect(r.changed).toBe(keyOf(next) !== keyOf(current));
                }
                if (keyOf(next) !== keyOf(current)) {
                  const replaced = keyOf(current);
                  model = [replaced, ...model.filter((k) => k !== replaced)].slice(0, kept);
                }
                current = next;
                const m = await readMemory(home, null, id);
                expect(m.ok && keyOf(m)).toBe(keyOf(current));
                const onDisk = (await listVersions(home, null, id)).map(keyOf);
                expect(onDisk).toEqual(model);
                expect(new Set(onDisk).size).toBe(onDisk.length);
              }
            } finally {
              await cleanup();
            }
          },
        ),
        { numRuns: label === "fixed" ? 40 : 20, seed },
      );
    },
  );
});
