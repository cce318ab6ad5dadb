/**
 * Vitest helper: the seeds a fuzz test runs with. Every fuzz test runs twice
 * in `npm test`: with a fixed seed (the same inputs at every run, so a bug
 * those inputs reach fails every time, not one run in ten) and with a random
 * one (new inputs each run). The seed is in the test's name and in the error
 * of a failure; `ODA_FUZZ_SEED=<n>` replays it (both runs then use it).
 * `ODA_FUZZ_FIXED=1` (set by `npm run mutate`) runs the fixed seed only: a
 * mutation run needs the same tests, by name, in every run of the suite.
 */

/** One run of a fuzz test: `fixed` or `random`, and its seed. */
export interface FuzzSeed {
  label: "fixed" | "random";
  seed: number;
}

/** The fixed seed and a random one (or `ODA_FUZZ_SEED` for both, to replay a failure). */
export function fuzzSeeds(fixed: number): FuzzSeed[] {
  const replay = process.env.ODA_FUZZ_SEED;
  if (replay !== undefined && replay !== "") {
    const seed = Number(replay);
    if (!Number.isSafeInteger(seed)) throw new Error(`ODA_FUZZ_SEED must be an integer, not ${JSON.stringify(replay)}`);
    return [{ label: "fixed", seed }];
  }
  if (process.env.ODA_FUZZ_FIXED === "1") return [{ label: "fixed", seed: fixed }];
  return [
    { label: "fixed", seed: fixed },
    { label: "random", seed: Math.floor(Math.random() * 2 ** 31) },
  ];
}

/** Runs `fn(seed)`; a failure is thrown again with the seed and how to replay it in its message. */
export async function withSeed<T>(name: string, seed: number, fn: (seed: number) => Promise<T>): Promise<T> {
  try {
    return await fn(seed);
  } catch (error) {
    const replay = `${name} failed with seed ${seed}; replay it with ODA_FUZZ_SEED=${seed}`;
    console.error(replay);
    throw new Error(`${replay}\n${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
