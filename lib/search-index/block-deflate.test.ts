import { randomBytes } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { BlockDeflater } from "./block-deflate";

const dictionary = Buffer.from(
  JSON.stringify(Array.from({ length: 300 }, (_, i) => `please read src/file-${i}.ts and fix the budget report`)),
).subarray(-8192);

/** Blocks as the index makes them: JSON arrays of entries' texts, short and long, and one that does not compress. */
const blocks = [
  Buffer.from("[]"),
  ...Array.from({ length: 40 }, (_, i) =>
    Buffer.from(JSON.stringify([`fix the budget report in src/file-${i}.ts`, "Done. ".repeat(1 + ((i * 37) % 400))])),
  ),
  Buffer.from(JSON.stringify(['naïve 🎉 "quoted"'.repeat(3000)])),
  randomBytes(200_000),
];

describe("a block deflater kept between blocks", () => {
  it("gives each block the bytes a new deflateRawSync stream gives, with and without a dictionary", () => {
    for (const dict of [dictionary, null]) {
      const deflater = new BlockDeflater(5, dict);
      for (const [k, block] of blocks.entries()) {
        const got = deflater.deflate(block, k % 2);
        const want = deflateRawSync(block, dict ? { level: 5, dictionary: dict } : { level: 5 });
        expect(got[0]).toBe(k % 2);
        expect(got.subarray(1).equals(want)).toBe(true);
        expect(inflateRawSync(got.subarray(1), dict ? { dictionary: dict } : {}).equals(block)).toBe(true);
      }
      // Every block went through the one stream, not the fallback's new stream per block.
      expect(deflater.kept).toBe(true);
    }
  });

  it("knows the dictionary it primes with", () => {
    const deflater = new BlockDeflater(5, dictionary);
    expect(deflater.uses(dictionary)).toBe(true);
    expect(deflater.uses(Buffer.from(dictionary))).toBe(true);
    expect(deflater.uses(Buffer.from(dictionary.subarray(1)))).toBe(false);
    expect(new BlockDeflater(5, null).uses(dictionary)).toBe(false);
  });
});
