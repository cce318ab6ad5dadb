import { describe, expect, it } from "vitest";
import { runKillHarness } from "../../test-support/repair/kill-harness";

describe("repair apply killed at random moments", () => {
  it("never loses or tears a log, and repair resume settles every interrupted repair", async () => {
    const report = await runKillHarness({ kills: 60, seed: 7, lanes: 3 });
    expect(report.failures).toEqual([]);
    expect(report.kills).toBe(60);
    // the kills must have landed on both sides of the swap, or the test proves little
    expect(report.resumed.finished + report.resumed.rolledBack).toBeGreaterThan(0);
  }, 400_000);
});
