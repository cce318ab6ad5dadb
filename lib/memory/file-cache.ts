/**
 * A per-process cache of what was derived from a file (a memory's parse, a
 * version's content key), keyed by the file's identity and stat: absolute
 * path, device, inode, size, mtime and ctime in nanoseconds. A lookup costs one
 * `lstat` instead of a read and a parse.
 *
 * Why a stat key sees every change: any write changes mtime and ctime, a
 * rename over the file changes the inode (and the new inode's ctime), and
 * ctime cannot be set from user space (`utimes` back to the old mtime still
 * moves ctime to now). The one gap is timestamp granularity: the kernel stamps
 * files from a coarse clock (a jiffy on Linux, whole seconds on some file
 * systems), so a same-size rewrite within one tick of the stat we cached could
 * keep every field equal. As git does with its "racily clean" entries, a file
 * whose ctime is not clearly older than the moment we began reading it is
 * never cached: it is read again next time, until it has settled.
 * (A file server whose clock runs more than {@link SETTLE_MS} behind this
 * machine's defeats that rule; the dashboard keeps homes on local disks.)
 */
import type { BigIntStats } from "node:fs";

/** How old (by ctime, against this machine's clock) a file must be before what was read from it is cached. */
export const SETTLE_MS = 3000;

/**
 * The wall clock the settle rule reads. Tests move it forward to see cached
 * entries without waiting {@link SETTLE_MS}; nothing else changes it.
 */
export const settleClock = { now: (): number => Date.now() };

/** The stat fields that identify one state of a file's bytes. */
export function statKey(st: BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * True when no change to the file after `startedAtMs` (wall clock, taken
 * before the stat) could leave the same stat key behind: its ctime is at least
 * {@link SETTLE_MS} older than that moment (and not in the future).
 */
export function isSettled(st: BigIntStats, startedAtMs: number): boolean {
  const ctimeMs = Number(st.ctimeNs / 1_000_000n);
  return ctimeMs <= startedAtMs - SETTLE_MS;
}

/** A bounded least-recently-used map (Map keeps insertion order; a hit moves the key to the end). */
export class LruCache<V> {
  private readonly map = new Map<string, V>();
  constructor(readonly maxEntries: number) {}

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.maxEntries) {
      const oldest = this.map.keys().next().value as string;
      this.map.delete(oldest);
    }
  }

  has(key: string): boolean {
    return this.map.has(key);
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}

interface Stamp {
  dev: bigint;
  ino: bigint;
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
}

const stampOf = (st: BigIntStats): Stamp => ({
  dev: st.dev,
  ino: st.ino,
  size: st.size,
  mtimeNs: st.mtimeNs,
  ctimeNs: st.ctimeNs,
});

/** Field by field: the same as comparing {@link statKey}s, without turning five bigints into a string per file. */
const sameStamp = (a: Stamp, st: BigIntStats): boolean =>
  a.ino === st.ino && a.mtimeNs === st.mtimeNs && a.ctimeNs === st.ctimeNs && a.size === st.size && a.dev === st.dev;

/**
 * A stat-validated cache: `value` is what was derived from `path` while its
 * stat key was the one given. Entries for one path replace each other.
 */
export class StatCache<V> {
  private readonly lru: LruCache<{ stamp: Stamp; value: V }>;
  constructor(maxEntries: number) {
    this.lru = new LruCache(maxEntries);
  }

  /** The cached value when the file still has the stat `st`. */
  get(path: string, st: BigIntStats): V | undefined {
    const hit = this.lru.get(path);
    if (!hit) return undefined;
    if (sameStamp(hit.stamp, st)) return hit.value;
    this.lru.delete(path);
    return undefined;
  }

  /** True when something is cached for `path` (at whatever stat): without it, a stat to check is wasted. */
  has(path: string): boolean {
    return this.lru.has(path);
  }

  /** Caches `value` for `path` at stat `st`, only if the file had settled before `startedAtMs`. */
  set(path: string, st: BigIntStats, startedAtMs: number, value: V): void {
    if (isSettled(st, startedAtMs)) this.lru.set(path, { stamp: stampOf(st), value });
    else this.lru.delete(path);
  }

  delete(path: string): void {
    this.lru.delete(path);
  }

  clear(): void {
    this.lru.clear();
  }

  get size(): number {
    return this.lru.size;
  }
}
