import { describe, expect, it } from "vitest";
import { fuzzMemory } from "./fuzz";

describe("memory fuzz", () => {
  it("parses every random memory file or reports it with exactly one contract sentence, never throwing or hanging", async () => {
    const { inputs } = await fuzzMemory(200, 7);
    expect(inputs).toBeGreaterThan(200);
  }, 120_000);
});
