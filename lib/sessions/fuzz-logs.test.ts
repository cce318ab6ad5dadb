import { describe, expect, it } from "vitest";
import { fuzzSeeds, withSeed } from "../test-fuzz";
import { fuzzLogs } from "./fuzz-logs";

describe("fuzzLogs", () => {
  for (const { label, seed } of fuzzSeeds(20261202)) {
    const runs = label === "fixed" ? 80 : 40;
    it(`reads generated logs (frames, lines, bombs, damage) without a crash, a hang or an unreported problem (${label} seed ${seed})`, async () => {
      const { inputs } = await withSeed("fuzzLogs", seed, (s) => fuzzLogs(runs, s));
      expect(inputs).toBeGreaterThanOrEqual(runs);
    }, 120_000);
  }
});
