import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeDemo } from "../scripts/demo";
import { makeFifo } from "../test-support/chats/hostile-folder";

/**
 * The fault matrix's tree (issue 24), shared by `cli/fault-matrix.test.ts`
 * and `e2e/fault-matrix.spec.ts`: a small demo broken in many small ways at
 * once for an unprivileged user. A log, a checkpoint, a lock, a chat folder, a
 * working-folder group and a memory file of mode 000 (owned by root), a FIFO
 * named like a log and a link loop named like one.
 */

/** Each fault's path, by name ("" for a lock when the demo has none). */
export interface FaultPaths {
  log: string;
  checkpoint: string;
  chatFolder: string;
  fifo: string;
  loop: string;
  lock: string;
  group: string;
  memory: string;
}

/** The sentence of a permission fault, as the unprivileged user (uid 65534) meets it. */
export const PERMISSION =
  /cannot be read: the system answered "permission denied" \(EACCES\): Oda Admin runs as nobody \(uid 65534\) and .* is owned by root \(uid 0\) with mode 0000\./;

/** The chat folders of a group, sorted, without the demo's special chats. */
function plainChats(logs: string, group: string): string[] {
  return readdirSync(join(logs, group))
    .filter((n) => !n.startsWith("c-demo-"))
    .sort();
}

/**
 * Writes the tree under `base` (made reachable for everyone) with a state
 * folder owned by `owner` (the unprivileged user; `null` leaves it root's).
 */
export async function makeFaultTree(
  base: string,
  owner: number | null,
): Promise<{ home: string; logs: string; state: string; fault: FaultPaths }> {
  chmodSync(base, 0o755); // the unprivileged user must reach what is inside
  const demo = await makeDemo({ out: join(base, "demo"), seed: 7, chats: 30 });
  const { home, logs } = demo;
  const state = join(base, "state");
  mkdirSync(state);
  if (owner !== null) chownSync(state, owner, owner);
  const groups = readdirSync(logs).sort();
  const noCwd = "_no-cwd";
  const withCwd = groups.filter((g) => g !== noCwd && plainChats(logs, g).length >= 2);
  const [g1, g2] = withCwd as [string, string];
  const [a, b, c3] = plainChats(logs, noCwd) as [string, string, string];
  const [c, d] = plainChats(logs, g1) as [string, string];
  const locked = readdirSync(join(logs, g2)).find((n) => existsSync(join(logs, g2, n, "session.lock")));
  const g3 = groups.find((g) => g !== noCwd && g !== g1 && g !== g2) as string;
  const sets = join(home, "memory", "workspaces");
  const set = readdirSync(sets).sort()[0] as string;
  const fault: FaultPaths = {
    log: join(logs, noCwd, a, "session.v4.jsonl.zstd"),
    checkpoint: join(logs, noCwd, b, "session.cache.json"),
    chatFolder: join(logs, g1, c),
    fifo: join(logs, g1, d, "session.v5.jsonl.zstd"),
    loop: join(logs, noCwd, c3 ?? a, "session.v6.jsonl.zstd"),
    lock: locked ? join(logs, g2, locked, "session.lock") : "",
    group: join(logs, g3),
    memory: join(sets, set, readdirSync(join(sets, set)).sort()[0] as string),
  };
  writeFileSync(fault.checkpoint, '{"cacheFormat": 1}');
  for (const p of [fault.log, fault.checkpoint, fault.chatFolder, fault.memory, fault.group, fault.lock])
    if (p) chmodSync(p, 0o000);
  makeFifo(fault.fifo);
  symlinkSync(fault.loop, fault.loop);
  return { home, logs, state, fault };
}
