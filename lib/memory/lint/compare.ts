/**
 * How lint compares memories, browser-safe (no `node:*`): the text two
 * memories are the same by, the words their similarity counts, and the
 * MinHash signatures that find near duplicates without comparing every pair.
 */

/** Markdown emphasis around a run of text: `*`, `**`, `***`, `_`…, `~~`. */
const STARS = /(\*{1,3})(?=\S)([^*]*?\S)\1/gu;
const UNDERSCORES = /(?<![\p{L}\p{N}_])(_{1,3})(?=\S)([^_]*?\S)\1(?![\p{L}\p{N}_])/gu;
const TILDES = /~~(?=\S)([^~]*?\S)~~/gu;

/**
 * A memory's text as lint compares it: Unicode NFC, lower case, Markdown
 * emphasis markers removed (`**Short**` is `short`; a snake_case name keeps
 * its underscores), every run of white space one space, ends trimmed. Two
 * memories whose texts give the same string are exact duplicates.
 */
export function normaliseForCompare(text: string): string {
  let s = text.normalize("NFC").toLowerCase();
  // twice: emphasis nested in emphasis (`**a _b_**`)
  for (let i = 0; i < 2; i++) s = s.replace(STARS, "$2").replace(UNDERSCORES, "$2").replace(TILDES, "$1");
  return s.replace(/\s+/gu, " ").trim();
}

/** The distinct words (runs of letters and digits) of a normalised text. */
export function wordsOf(normalised: string): Set<string> {
  return new Set(normalised.match(/[\p{L}\p{N}]+/gu) ?? []);
}

/** Share of distinct words two texts have in common (Jaccard), 0 to 1. */
export function similarity(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const w of small) if (large.has(w)) common++;
  return common / (a.size + b.size - common);
}

/** FNV-1a of a string, 32 bits. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** murmur3's finaliser: a well-mixed 32-bit hash of a 32-bit value. */
function mix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Bands × rows of the MinHash signature (LSH): pairs at 0.7 similarity share a band with probability 0.998. */
export const BANDS = 16;
export const ROWS = 3;
const SEEDS = Array.from({ length: BANDS * ROWS }, (_, i) => mix(0x9e3779b9 + i * 0x632be5ab));

/**
 * The keys of a word set's LSH buckets, one 32-bit number per band: two texts
 * land in the same bucket of some band with a probability that grows steeply
 * with their similarity, so only texts sharing a bucket need comparing (two
 * bands' rows hashing alike only adds a comparison, never loses one).
 */
export function bandKeys(words: Set<string>): Uint32Array {
  const mins = new Uint32Array(SEEDS.length).fill(0xffffffff);
  for (const w of words) {
    const h = fnv1a(w);
    for (let i = 0; i < SEEDS.length; i++) {
      const v = mix(h ^ (SEEDS[i] as number));
      if (v < (mins[i] as number)) mins[i] = v;
    }
  }
  const keys = new Uint32Array(BANDS);
  for (let b = 0; b < BANDS; b++) {
    let k = 0;
    for (let r = 0; r < ROWS; r++) k = mix(k ^ (mins[b * ROWS + r] as number));
    keys[b] = k;
  }
  return keys;
}
