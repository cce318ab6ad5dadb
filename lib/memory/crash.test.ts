import { describe, expect, it } from "vitest";
import { runCrashHarness } from "./crash-harness";

describe("crash safety", () => {
  it("finds no torn, empty or lost memory file and no lost version after hundreds of SIGKILLs mid-save", async () => {
    const report = await runCrashHarness({ kills: 200, seed: 42, maxKillAfterMs: 60 });
    expect(report.failures).toEqual([]);
    expect(report.kills).toBe(200);
    // kills land before, inside and between saves: some rounds complete saves, many do not
    expect(report.savesCompleted).toBeGreaterThan(50);
  }, 180_000);
});
