import { inflateRawSync } from "node:zlib";
import { BlockDeflater } from "./block-deflate";

/**
 * How a text block is compressed (`texts.ts`). A long chat's blocks compress
 * well on their own, but a short chat's single block (a kilobyte or two) has
 * no history for deflate to use: about a third of its size was left. Small
 * blocks are therefore compressed with a preset dictionary, made once per
 * index from the first text a build writes (a few hundred bytes of each of
 * its first entries) and kept in the index's meta table: they shrink by about
 * a third more. Each block starts with one byte saying which way it went.
 */

/**
 * Deflate rather than zstd: a search inflates the shown hits' blocks
 * synchronously, and Node's inflate is native where the only synchronous zstd
 * decoder at hand (fzstd) is JavaScript and many times slower per block.
 */
const LEVEL = 5;
/** Blocks under this many bytes use the dictionary: priming it costs about as much as compressing 8 KB. */
const SMALL_BYTES = 8192;
/** The dictionary's size: larger ones compressed no better and cost more to prime. */
export const DICTIONARY_BYTES = 8192;
/** Characters taken from each entry sampled: many entries say more of the index's words than a few long ones. */
const SAMPLE_CHARS = 256;
const PLAIN = 0;
const WITH_DICTIONARY = 1;

/**
 * This thread's deflaters, kept between blocks: a new one per block spent most of a small block's time setting
 * zlib up and priming the dictionary (`block-deflate.ts`). Made again when the dictionary given changes.
 */
let plain: BlockDeflater | null = null;
let withDictionary: BlockDeflater | null = null;

/** A block's bytes: its tag, then raw deflate (with the dictionary when the tag says so). */
export function encodeBlock(json: Buffer, dictionary: Buffer | null): Buffer {
  if (dictionary !== null && json.length < SMALL_BYTES) {
    if (!withDictionary?.uses(dictionary)) withDictionary = new BlockDeflater(LEVEL, dictionary);
    return withDictionary.deflate(json, WITH_DICTIONARY);
  }
  plain ??= new BlockDeflater(LEVEL, null);
  return plain.deflate(json, PLAIN);
}

/** A block's JSON back; `dictionary` is asked for only when the block needs it. */
export function decodeBlock(block: Buffer, dictionary: () => Buffer | null): Buffer {
  const data = block.subarray(1);
  if (block[0] === PLAIN) return inflateRawSync(data);
  const dict = dictionary();
  // A tagged block in an index without its dictionary: the file is not what this code wrote.
  if (block[0] !== WITH_DICTIONARY || !dict)
    throw Object.assign(new Error("A text block cannot be read."), { code: "SQLITE_CORRUPT" });
  return inflateRawSync(data, { dictionary: dict });
}

/**
 * A refresh's dictionary: the stored one, or one sampled from the first
 * entries it writes; whoever compresses blocks (the reader threads) is told
 * once it exists. Blocks compressed before that stay plain.
 */
export class TextCodec {
  private sample: string[] = [];
  private sampled = 0;
  private listeners: ((dictionary: Buffer) => void)[] = [];

  constructor(public dictionary: Buffer | null = null) {}

  /** Calls `listener` with the dictionary once it is made. */
  onMade(listener: (dictionary: Buffer) => void): void {
    this.listeners.push(listener);
  }

  /** Takes the start of each entry until the dictionary is full; returns it once, when it is made. */
  add(texts: string[]): Buffer | null {
    if (this.dictionary) return null;
    for (const text of texts) {
      const part = text.slice(0, SAMPLE_CHARS);
      this.sample.push(part);
      this.sampled += Buffer.byteLength(part);
      if (this.sampled >= DICTIONARY_BYTES) break;
    }
    if (this.sampled < DICTIONARY_BYTES) return null;
    // Deflate reaches back 32 KB from the block: the dictionary's end is nearest, so the first entries go there.
    // Written as blocks are (a JSON array of the entries' texts), so quotes and escapes match too.
    const dictionary = Buffer.from(JSON.stringify(this.sample.reverse())).subarray(-DICTIONARY_BYTES);
    this.dictionary = dictionary;
    this.sample = [];
    for (const listener of this.listeners) listener(dictionary);
    return dictionary;
  }
}
