/**
 * Every place one of a set of words occurs in a text, ASCII case ignored, as
 * gitleaks looks for its rules' keywords: one Aho-Corasick automaton, one
 * table step per character. It replaces one alternation of every keyword
 * (about 36 MB/s on chat text, where `sk` stands in "risk" and `token` in
 * `input_tokens`), and it reports overlapping words too. A bundle's detectors
 * (`lib/bundle/detectors.ts`) scan each string once with the rules' keywords
 * and what the other kinds look for first (`@`, `/home/`, a host name).
 */
export class KeywordScanner {
  /** The words, lower-case, in the order `scan` numbers them. */
  readonly words: string[];
  private readonly lengths: Int32Array;
  /** Each ASCII code's symbol: its letter's lower case, or 0 for a character no word holds (and past ASCII). */
  private readonly symbol: Uint8Array;
  /** Symbols per state (the width of a row of `next`). */
  private readonly width: number;
  /**
   * Next state for (state, symbol) at `state + symbol`, states numbered by their row's start; `~row` (negative)
   * for a state where some word ends, so the scan's one look at a character is one load and one sign test.
   */
  private readonly next: Int32Array;
  /** The words ending at each state (its own and those of its suffixes): `outWords[outStart[s]…outStart[s+1]]`. */
  private readonly outStart: Int32Array;
  private readonly outWords: Int32Array;

  constructor(words: string[]) {
    this.words = [...new Set(words.map((w) => w.toLowerCase()))].filter((w) => w.length > 0);
    this.lengths = Int32Array.from(this.words, (w) => w.length);
    this.symbol = new Uint8Array(128);
    let symbols = 1;
    for (const w of this.words)
      for (const ch of w) {
        const c = ch.charCodeAt(0);
        if (c >= 128) throw new Error(`keyword "${w}" is not ASCII`);
        if (!this.symbol[c]) {
          this.symbol[c] = symbols++;
          // A letter is found in either case.
          if (c >= 97 && c <= 122) this.symbol[c - 32] = this.symbol[c] as number;
        }
      }
    const width = symbols;
    this.width = width;
    const goto: Map<number, number>[] = [new Map()];
    const ends: number[][] = [[]];
    this.words.forEach((w, k) => {
      let s = 0;
      for (const ch of w) {
        const c = this.symbol[ch.charCodeAt(0)] as number;
        let t = goto[s]?.get(c);
        if (t === undefined) {
          t = goto.length;
          goto.push(new Map());
          ends.push([]);
          goto[s]?.set(c, t);
        }
        s = t;
      }
      ends[s]?.push(k);
    });
    const n = goto.length;
    const delta = new Int32Array(n * width);
    const fail = new Int32Array(n);
    // Breadth first: a state's failure (its longest proper suffix that is a state) is known before its children.
    const queue: number[] = [];
    for (let c = 1; c < width; c++) {
      const t = goto[0]?.get(c) ?? 0;
      delta[c] = t;
      if (t) queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q] as number;
      ends[s]?.push(...(ends[fail[s] as number] ?? []));
      for (let c = 1; c < width; c++) {
        const t = goto[s]?.get(c);
        if (t === undefined) delta[s * width + c] = delta[(fail[s] as number) * width + c] as number;
        else {
          fail[t] = delta[(fail[s] as number) * width + c] as number;
          delta[s * width + c] = t;
          queue.push(t);
        }
      }
    }
    this.next = delta.map((t) => (ends[t]?.length ? ~(t * width) : t * width));
    this.outStart = new Int32Array(n + 1);
    const flat: number[] = [];
    for (let s = 0; s < n; s++) {
      this.outStart[s] = flat.length;
      flat.push(...(ends[s] ?? []));
    }
    this.outStart[n] = flat.length;
    this.outWords = Int32Array.from(flat);
  }

  /** Words found by the last `collect` (or `collectBytes`), and where each starts: as many entries as it returned. */
  hitWords = new Int32Array(64);
  hitStarts = new Int32Array(64);

  /**
   * Every occurrence of every word in `text`, as `scan` finds them, into `hitWords` and `hitStarts` (reused, grown
   * when full), without a call per hit: the scan of every string of a bundle. Returns how many there are.
   */
  collect(text: string): number {
    const { next, symbol, width } = this;
    let row = 0;
    let n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const t = next[row + (c < 128 ? (symbol[c] as number) : 0)] as number;
      if (t >= 0) row = t;
      else {
        row = ~t;
        n = this.hitsAt(row / width, i, n);
      }
    }
    return n;
  }

  /**
   * `collect` of a text given as its bytes, one a character (ASCII, as a log line without `\\` or any byte past
   * 127 is): the same hits, about half again as fast as reading the characters of a string.
   */
  collectBytes(bytes: Uint8Array): number {
    const { next, symbol, width } = this;
    let row = 0;
    let n = 0;
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i] as number;
      const t = next[row + (c < 128 ? (symbol[c] as number) : 0)] as number;
      if (t >= 0) row = t;
      else {
        row = ~t;
        n = this.hitsAt(row / width, i, n);
      }
    }
    return n;
  }

  /** Records the words ending at state `s` at character `i` from hit `n` on; returns the new count. */
  private hitsAt(s: number, i: number, n: number): number {
    const { outStart, outWords, lengths } = this;
    const to = outStart[s + 1] as number;
    for (let j = outStart[s] as number; j < to; j++) {
      const k = outWords[j] as number;
      if (n === this.hitWords.length) this.grow();
      (this.hitWords as Int32Array)[n] = k;
      (this.hitStarts as Int32Array)[n] = i - (lengths[k] as number) + 1;
      n++;
    }
    return n;
  }

  private grow(): void {
    const words = new Int32Array(this.hitWords.length * 2);
    const starts = new Int32Array(words.length);
    words.set(this.hitWords);
    starts.set(this.hitStarts);
    this.hitWords = words;
    this.hitStarts = starts;
  }

  /** Calls `hit(word, start)` for every occurrence of every word in `text` (overlapping ones too), by where it ends. */
  scan(text: string, hit: (word: number, start: number) => void): void {
    const { next, symbol, outStart, outWords, lengths, width } = this;
    let row = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      const t = next[row + (c < 128 ? (symbol[c] as number) : 0)] as number;
      if (t >= 0) {
        row = t;
        continue;
      }
      row = ~t;
      const s = row / width;
      const to = outStart[s + 1] as number;
      for (let j = outStart[s] as number; j < to; j++) {
        const k = outWords[j] as number;
        hit(k, i - (lengths[k] as number) + 1);
      }
    }
  }
}
