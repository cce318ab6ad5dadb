import { describe, expect, it } from "vitest";

// Counts kept small for `npm test` (each CLI process costs about 0.4 s of CPU); `npm run bench:memory-race`
// runs hundreds of pairs. Against the old per-process lock, 30 of 60 saved texts and 16 of 16 replaced
// outside writes were lost in a run of the bench with 30 pairs.
import { runRaceHarness } from "../../test-support/memory/race-harness";
import { runOutsideWriter } from "../../test-support/memory/race-writer";

describe("changes from several Oda Admin processes", () => {
  it("loses no saved text when CLI/CLI and server/CLI pairs save one memory at the same instant", async () => {
    const report = await runRaceHarness({ cliPairs: 15, serverPairs: 25 });
    expect(report.lost).toEqual([]);
    expect(report.badRefusals).toEqual([]);
    expect(report.pairs).toBe(40);
  }, 240_000);

  it("lets exactly one of two saves with the same --expect through, and refuses the other with the sentence", async () => {
    const report = await runRaceHarness({ cliPairs: 4, serverPairs: 4, expect: true });
    expect(report.lost).toEqual([]);
    expect(report.badRefusals).toEqual([]);
    expect(report.saved).toBe(8);
    expect(report.refused).toBe(8);
  }, 240_000);

  it("loses no write of an outside writer that rewrites the file plainly in a tight loop while saves run", async () => {
    const report = await runOutsideWriter({ rounds: 2, saves: 30 });
    expect(report.lost).toEqual([]);
    // saves did replace outside writes (so the check above checked something)
    expect(report.replaced).toBeGreaterThan(0);
  }, 240_000);
});
