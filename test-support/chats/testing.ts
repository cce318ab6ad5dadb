/**
 * `test-support/chats/testing`: the chat writer (a stand-in for Oda writing its
 * logs) and the crash helpers (a cut save, an unfinished line, a dead lock
 * holder). For tests, benches, fixtures and the demo generator only: the app
 * never writes a chat log, so none of this is in the `lib/chats` barrel.
 */
import { lutimesSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";

export * from "./writer";

let settleCalls = 0;

/**
 * Dates every folder and file under `dir` an hour back, as files written long before the refresh or listing
 * that follows: none is racy (a time within 2 s of its verification, `stat-identity.ts`), so it is judged
 * unchanged while nothing changes. Each call dates a millisecond later than the one before, so a file
 * changed and settled again still has a time of its own. Links are dated themselves, never what they lead to.
 */
export function settleFolder(dir: string): void {
  const at = new Date(Date.now() - 3_600_000 + ++settleCalls);
  const walk = (path: string) => {
    for (const e of readdirSync(path, { withFileTypes: true })) {
      const p = join(path, e.name);
      if (e.isSymbolicLink()) lutimesSync(p, at, at);
      else if (e.isDirectory()) walk(p);
      else utimesSync(p, at, at);
    }
    utimesSync(path, at, at);
  };
  walk(dir);
}
