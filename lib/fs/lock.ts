import { execFileSync } from "node:child_process";
import { closeSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { openRegularSync } from "./open-regular";
import { isSystemError, systemErrorSentence } from "./system-error";

/**
 * `session.lock` liveness (`docs/file-contract.md`, One writer). The file holds
 * `{"pid", "host", "startedAt"}`; its holder is alive when the host is this
 * machine's, the pid runs and, where `/proc` shows it, that process started
 * within one second of `startedAt`.
 */

/** What a lock file says about its writer. */
export interface LockHolder {
  pid: number;
  host: string;
  /** ISO start time of the holding process. */
  startedAt: string;
}

/**
 * - `none`: no lock file.
 * - `live`: the holder runs on this machine (start time matching where known).
 * - `stale`: the holder is provably gone (pid not running, or reused by a
 *   process that started at another time).
 * - `unknown`: cannot tell (another host, unreadable or garbage content); treated as live.
 */
export type LockState = "none" | "live" | "stale" | "unknown";

/** A lock file's state, with its holder when the content could be read. */
export interface LockStatus {
  state: LockState;
  pid?: number;
  host?: string;
  startedAt?: string;
  /** Why the state was chosen, in one sentence (for tooltips and `doctor`). */
  reason: string;
  /** The file's exact content, so a later removal can check nothing changed. */
  raw?: string;
  /** Set when the system would not give the file (permission, I/O error, …): `reason` is its sentence. */
  unreadable?: boolean;
}

let clockTicks: number | undefined;
/** Clock ticks per second for `/proc/<pid>/stat` (`getconf CLK_TCK`, usually 100), read once. */
function readClockTicks(): number {
  clockTicks ??= readAuxvClockTicks() ?? getconfClockTicks();
  return clockTicks;
}

/**
 * `getconf CLK_TCK`, 100 when it cannot be run or prints no number. Exported for the tests (`env`: its PATH;
 * without it the child inherits this process's environment, which is not read here).
 */
export function getconfClockTicks(env?: Partial<NodeJS.ProcessEnv>): number {
  try {
    const printed = execFileSync("getconf", ["CLK_TCK"], {
      encoding: "utf8",
      ...(env ? { env: env as NodeJS.ProcessEnv } : {}),
    });
    return Number(printed.trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * AT_CLKTCK (type 17) from `/proc/self/auxv` (pairs of native 64-bit words):
 * what `getconf CLK_TCK` prints, without starting a process, which costs tens
 * of milliseconds on a busy machine in front of every first lock. `auxv` is
 * that file's bytes (read here when not given). Exported for the tests.
 */
export function readAuxvClockTicks(auxv?: Buffer): number | undefined {
  try {
    const words = auxv ?? readFileSync("/proc/self/auxv");
    for (let i = 0; i + 16 <= words.length; i += 16) {
      const type = words.readBigUInt64LE(i);
      if (type === 0n) break;
      if (type === 17n) return Number(words.readBigUInt64LE(i + 8)) || undefined;
    }
  } catch {
    // not Linux, or 32-bit words: getconf instead
  }
  return undefined;
}

/**
 * The boot time (ms) as `/proc/stat` gives it now, or null. Read at each use, never kept: the kernel derives
 * it from the wall clock, so a step of that clock (NTP, a virtual machine resumed) moves it, and a start time
 * made from a boot time read before the step is off by the step. Kept from a process's first lock, it made a
 * live writer's lock, written after a 7 s step, read as "the pid was reused" (an e2e run, session 43).
 */
function readBootTimeMs(): number | null {
  try {
    return bootTimeMsOf(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}

/** The boot time (ms) in `/proc/stat`'s text (its `btime <seconds>` line), or null. Exported for the tests. */
export function bootTimeMsOf(procStat: string): number | null {
  const match = /^btime (\d+)$/m.exec(procStat);
  return match ? Number(match[1]) * 1000 : null;
}

/**
 * When process `pid` started, from `/proc/<pid>/stat` (field 22, clock ticks
 * after boot) and `/proc/stat`'s btime. `null` where the system does not show it
 * or the process does not exist.
 */
export function readProcessStartTime(pid: number): Date | null {
  const boot = readBootTimeMs();
  if (boot === null) return null;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: split after the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  if (!Number.isFinite(ticks)) return null;
  return new Date(boot + (ticks * 1000) / readClockTicks());
}

/** True when `pid` runs (EPERM counts: the process exists, it is just not ours). */
export function isPidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The holder record for this process, as a writer puts it in `session.lock`. */
export function describeThisProcess(): LockHolder {
  const started = readProcessStartTime(process.pid) ?? new Date(Date.now() - process.uptime() * 1000);
  return { pid: process.pid, host: hostname(), startedAt: started.toISOString() };
}

/** Judges a holder record: live, stale or unknown, with the reason. */
export function judgeHolder(holder: LockHolder): { state: Exclude<LockState, "none">; reason: string } {
  if (holder.host !== hostname()) {
    return {
      state: "unknown",
      reason: `The lock is held on another computer (${holder.host}); it cannot be checked from here.`,
    };
  }
  if (!isPidRunning(holder.pid)) {
    return { state: "stale", reason: `Process ${holder.pid} is no longer running.` };
  }
  const started = readProcessStartTime(holder.pid);
  const claimed = Date.parse(holder.startedAt);
  if (started && Number.isFinite(claimed) && Math.abs(started.getTime() - claimed) > 1000) {
    return {
      state: "stale",
      reason: `Process ${holder.pid} runs but started at ${started.toISOString()}, not ${holder.startedAt}: the pid was reused.`,
    };
  }
  if (!started)
    return { state: "live", reason: `Process ${holder.pid} is running (its start time cannot be checked here).` };
  return { state: "live", reason: `Process ${holder.pid} is running.` };
}

/** Parses lock content; `null` when it is not a `{pid, host, startedAt}` object. */
export function parseLockContent(raw: string): LockHolder | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { pid, host, startedAt } = value as Record<string, unknown>;
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 0) return null;
  if (typeof host !== "string" || typeof startedAt !== "string") return null;
  return { pid, host, startedAt };
}

/** A lock file's text; a FIFO or the like is refused at once instead of blocking the read. */
function readRegular(path: string): string {
  const { fd } = openRegularSync(path);
  try {
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}

/** Reads a lock file (read-only) and judges it. A missing file is `none`. */
export function readLockStatus(path: string): LockStatus {
  let raw: string;
  try {
    raw = readRegular(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { state: "none", reason: "No lock file." };
    if (isSystemError(error)) return { state: "unknown", reason: systemErrorSentence(error, path), unreadable: true };
    return { state: "unknown", reason: `The lock file cannot be read: ${(error as Error).message}` };
  }
  const holder = parseLockContent(raw);
  if (!holder) return { state: "unknown", raw, reason: "The lock file does not name a process; it cannot be checked." };
  return { ...holder, ...judgeHolder(holder), raw };
}

/** Creates a lock file exclusively; `false` when one already exists. */
export function createLockFile(path: string, holder: LockHolder): boolean {
  try {
    writeFileSync(path, `${JSON.stringify(holder)}\n`, { flag: "wx" });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  }
}

/**
 * Removes a lock file only while its content is still `expectedRaw` and it is
 * still stale. Returns the status that decided. There is a small window
 * between the check and the unlink; `session.lock` has no atomic
 * compare-and-delete, and a new writer only appears after the old file is gone.
 */
export function removeStaleLock(path: string, expectedRaw: string): { removed: boolean; status: LockStatus } {
  const status = readLockStatus(path);
  if (status.state !== "stale" || status.raw !== expectedRaw) return { removed: false, status };
  unlinkSync(path);
  return { removed: true, status };
}
