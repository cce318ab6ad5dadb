import { describe, expect, it } from "vitest";
import { fuzzLogs } from "../../test-support/chats/fuzz-logs";
import { fuzzSeeds, withSeed } from "../../test-support/test-fuzz";

describe("fuzzLogs", () => {
  for (const { label, seed } of fuzzSeeds(20261202)) {
    const runs = label === "fixed" ? 80 : 40;
    it(`reads generated logs (frames, lines, bombs, damage) without a crash, a hang or an unreported problem (${label} seed ${seed})`, async () => {
      const { inputs } = await withSeed("fuzzLogs", seed, (s) => fuzzLogs(runs, s));
      expect(inputs).toBeGreaterThanOrEqual(runs);
    }, 120_000);
  }
});
