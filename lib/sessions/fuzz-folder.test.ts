import { describe, expect, it } from "vitest";
import { fuzzFolder } from "./fuzz-folder";

describe("fuzz: hostile log folders", () => {
  it("lists, locates and reads random folders of FIFOs, sockets and links without a hang, a crash, a silent entry or a byte from outside", async () => {
    const { inputs } = await fuzzFolder(25);
    expect(inputs).toBeGreaterThan(25);
  }, 60_000);
});
