/** Vitest helper: temp log and state folders for index tests, removed (indexes closed first) after each test. */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { readProcessStartTime } from "../../lib/fs";
import { closeAllIndexes } from "../../lib/search-index";
import { tempFolder } from "../test-temp";

/** The folders one test works in: `logs` exists, `state` is left for the index to make. */
export interface IndexRoots {
  dir: string;
  logs: string;
  state: string;
}

/**
 * Registers the cleanup and returns a maker of fresh roots named `prefix…`.
 * The indexes close before their folders go, as a database file still open
 * would keep its folder's space until the process ends.
 */
export function tempIndexRoots(prefix: string): () => IndexRoots {
  // Registered after test-temp's removal hook, so it runs first (vitest runs after-hooks as a stack).
  afterEach(() => closeAllIndexes());
  return () => {
    const dir = tempFolder(prefix);
    const logs = join(dir, "logs");
    mkdirSync(logs);
    return { dir, logs, state: join(dir, "state") };
  };
}

/**
 * Runs `during` while a live process holds the chat's lock (as a copy of Oda
 * would), then kills that process: its lock file stays as it was, now stale.
 */
export async function whileLockHeld(chatDir: string, during: () => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" });
  try {
    const pid = child.pid as number;
    const started = readProcessStartTime(pid) ?? new Date();
    writeFileSync(
      join(chatDir, "session.lock"),
      `${JSON.stringify({ pid, host: hostname(), startedAt: started.toISOString() })}\n`,
    );
    await during();
  } finally {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
}
