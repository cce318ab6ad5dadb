import { join } from "node:path";
import { formatBinarySize } from "../bytes";
import { readSettingsFile } from "../fs/settings-file";

/**
 * Oda Admin's own limits for reading one log, so that a zstd bomb or a huge
 * line never takes unbounded memory or time. They live in the admin state
 * (`<admin state>/settings.json` `{"logs": {...}}`), not in Oda's settings,
 * which belong to Oda. Real logs never meet them: JSONL compresses 5–50×,
 * while a bomb of zeros or newlines decodes to 10,000× its size and more.
 */

/** The limits one log is read under. */
export interface LogLimits {
  /** Absolute cap on a log's decoded bytes. */
  maxDecodedBytes: number;
  /** A line longer than this is never held whole: its first bytes are shown, truncated. */
  maxLineBytes: number;
  /** Decoded bytes may exceed `maxRatio` × the compressed bytes read so far only below `ratioFloor` decoded bytes. */
  maxRatio: number;
  ratioFloor: number;
}

/**
 * Defaults: 64 GiB, 16 MiB lines, and a bomb guard at 1000× the compressed
 * bytes read once past 16 MiB decoded. The floor is low on purpose: a newline
 * bomb is one line per byte, and 16 million lines already take seconds to
 * split; a real log at 16 MiB decoded has read 300 KiB–3 MiB of its file,
 * far below 1000×.
 */
export const DEFAULT_LOG_LIMITS: LogLimits = Object.freeze({
  maxDecodedBytes: 64 * 1024 ** 3,
  maxLineBytes: 16 * 1024 ** 2,
  maxRatio: 1000,
  ratioFloor: 16 * 1024 ** 2,
});

/** The bytes of an over-long line that are kept and shown. */
export const LINE_HEAD_BYTES = 4096;

/**
 * Each value's accepted range (and whether it is a whole number). Plain checks,
 * not a zod schema: every CLI command reads these, and loading zod is most of a
 * new process's start-up.
 */
const RANGES: Record<keyof LogLimits, { min: number; max: number; whole: boolean }> = {
  maxDecodedBytes: { min: 1024 ** 2, max: 2 ** 50, whole: true },
  maxLineBytes: { min: 64 * 1024, max: 1024 ** 3, whole: true },
  maxRatio: { min: 10, max: 1e9, whole: false },
  ratioFloor: { min: 1024 ** 2, max: 2 ** 50, whole: true },
};

function fitsRange(value: unknown, range: (typeof RANGES)[keyof LogLimits]): value is number {
  if (typeof value !== "number" || !Number.isFinite(value)) return false;
  return (!range.whole || Number.isSafeInteger(value)) && value >= range.min && value <= range.max;
}

// On globalThis so every bundle of the server (and the worker) shares one setting.
const KEY = Symbol.for("oda-admin.log-limits");
const store = globalThis as Record<symbol, LogLimits | undefined>;

/** The limits in force (the defaults unless `setLogLimits` changed them). */
export function logLimits(): LogLimits {
  return store[KEY] ?? DEFAULT_LOG_LIMITS;
}

/** Sets the limits for this process (the server at start, the CLI from its flags, tests); `null` restores the defaults. */
export function setLogLimits(limits: Partial<LogLimits> | null): LogLimits {
  store[KEY] = limits ? { ...DEFAULT_LOG_LIMITS, ...limits } : undefined;
  return logLimits();
}

/** What `readLogLimits` found: the limits to use and a sentence per value refused. */
export interface LogLimitsSetting {
  limits: LogLimits;
  problems: string[];
}

/**
 * Reads `logs` from `<state>/settings.json`. A missing file or key gives the
 * defaults; a value of the wrong type or out of range is reported and its
 * default used.
 */
export function readLogLimits(state: string | null): LogLimitsSetting {
  if (!state) return { limits: DEFAULT_LOG_LIMITS, problems: [] };
  const path = join(state, "settings.json");
  const read = readSettingsFile(path);
  if (!read.ok) {
    const why = read.reason === "not-regular" ? `it is ${read.kind}, not a regular file` : read.message;
    return { limits: DEFAULT_LOG_LIMITS, problems: [`${path} cannot be read: ${why}`] };
  }
  const logs = (read.value as { logs?: unknown } | null)?.logs;
  if (logs === undefined) return { limits: DEFAULT_LOG_LIMITS, problems: [] };
  const limits: LogLimits = { ...DEFAULT_LOG_LIMITS };
  const problems: string[] = [];
  const given = logs && typeof logs === "object" ? (logs as Record<string, unknown>) : {};
  for (const key of Object.keys(DEFAULT_LOG_LIMITS) as (keyof LogLimits)[]) {
    if (given[key] === undefined) continue;
    const value = given[key];
    if (fitsRange(value, RANGES[key])) limits[key] = value;
    else problems.push(`logs.${key} in ${path} is invalid; the default ${DEFAULT_LOG_LIMITS[key]} is used.`);
  }
  return { limits, problems };
}

/** "5.0 GiB"-style size for sentences. */
export function formatBytes(n: number): string {
  return formatBinarySize(n, "bytes");
}
