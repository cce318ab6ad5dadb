/** The limits of `settings.json` → `memory` (`docs/file-contract.md`, Roots). */
export interface Limits {
  titleMaxChars: number;
  textMaxChars: number;
  fileMaxBytes: number;
  chatMaxTokens: number;
  versionsKept: number;
}

/** The name of one limit. */
export type LimitName = keyof Limits;

/** The defaults: 120 characters, 2000 characters, 64 KiB, 8000 tokens, ten versions. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  titleMaxChars: 120,
  textMaxChars: 2000,
  fileMaxBytes: 65536,
  chatMaxTokens: 8000,
  versionsKept: 10,
});

/** The range each limit may be set to, both ends included. */
export const LIMIT_RANGES: Readonly<Record<LimitName, readonly [number, number]>> = Object.freeze({
  titleMaxChars: [20, 1000],
  textMaxChars: [100, 100000],
  fileMaxBytes: [1024, 1048576],
  chatMaxTokens: [500, 200000],
  versionsKept: [2, 100],
});

/** Every limit name, in the contract's order. */
export const LIMIT_NAMES = Object.keys(DEFAULT_LIMITS) as LimitName[];

/**
 * Checks one limit value: null when it is a whole number within its range,
 * otherwise the sentence the Settings page and `doctor` show.
 */
export function checkLimitValue(name: LimitName, value: unknown): string | null {
  const [min, max] = LIMIT_RANGES[name];
  if (typeof value === "number" && Number.isInteger(value) && value >= min && value <= max) return null;
  return `memory.${name} must be a whole number from ${min} to ${max}; ${JSON.stringify(value) ?? String(value)} is not.`;
}
