import { describe, expect, it } from "vitest";
import { fuzzMemory } from "../../test-support/memory/fuzz";
import { fuzzSeeds, withSeed } from "../../test-support/test-fuzz";

describe("memory fuzz", () => {
  for (const { label, seed } of fuzzSeeds(7)) {
    const runs = label === "fixed" ? 140 : 60;
    it(`parses every random memory file or reports it with exactly one contract sentence, never throwing or hanging (${label} seed ${seed})`, async () => {
      const { inputs } = await withSeed("fuzzMemory", seed, (s) => fuzzMemory(runs, s));
      expect(inputs).toBeGreaterThan(runs);
    }, 120_000);
  }
});
