/** A small seeded PRNG (mulberry32), so demo data and test fixtures are the same for the same seed. */
export interface Random {
  /** A float in [0, 1). */
  next: () => number;
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
  hex: (length: number) => string;
  chance: (p: number) => boolean;
}

export function makeRandom(seed: number): Random {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    hex: (length) => Array.from({ length }, () => "0123456789abcdef"[int(0, 15)]).join(""),
    chance: (p) => next() < p,
  };
}

/** A clock that moves forward by a random few minutes at each call, from `start`. */
export function makeDemoClock(random: Random, start: string): () => Date {
  let t = Date.parse(start);
  return () => {
    t += random.int(1, 240) * 60_000 + random.int(0, 59_999);
    return new Date(t);
  };
}
