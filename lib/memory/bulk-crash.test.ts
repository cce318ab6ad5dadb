import { describe, expect, it } from "vitest";
import { runBulkCrashHarness } from "../../test-support/memory/crash-harness";

describe("bulk changes across SIGKILL", () => {
  it("leaves every bulk change whole once the next change has run, however the kill split it", async () => {
    const report = await runBulkCrashHarness({ kills: 20, seed: 7, maxKillAfterMs: 200 });
    expect(report.failures).toEqual([]);
    expect(report.kills).toBe(20);
    // kills landed inside bulk changes (the memories were seen split), and bulk changes completed
    expect(report.splitSeen).toBeGreaterThan(0);
    expect(report.savesCompleted).toBeGreaterThan(5);
  }, 600_000);
});
