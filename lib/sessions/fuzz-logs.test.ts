import { describe, expect, it } from "vitest";
import { fuzzLogs } from "./fuzz-logs";

describe("fuzzLogs", () => {
  it("reads generated logs (frames, lines, bombs, damage) without a crash, a hang or an unreported problem", async () => {
    const { inputs } = await fuzzLogs(120);
    expect(inputs).toBeGreaterThanOrEqual(120);
  }, 120_000);
});
