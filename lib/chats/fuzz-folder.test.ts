import { describe, expect, it } from "vitest";
import { fuzzFolder } from "../../test-support/chats/fuzz-folder";
import { fuzzSeeds, withSeed } from "../../test-support/test-fuzz";

describe("fuzz: hostile log folders", () => {
  for (const { label, seed } of fuzzSeeds(31)) {
    const runs = label === "fixed" ? 17 : 8;
    it(`lists, locates and reads random folders of FIFOs, sockets and links without a hang, a crash, a silent entry or a byte from outside (${label} seed ${seed})`, async () => {
      const { inputs } = await withSeed("fuzzFolder", seed, (s) => fuzzFolder(runs, s));
      expect(inputs).toBeGreaterThan(runs);
    }, 60_000);
  }
});
