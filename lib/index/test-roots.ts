/** Vitest helper: temp log and state folders for index tests, removed (indexes closed first) after each test. */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { closeAllIndexes } from ".";

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
  const made: string[] = [];
  afterEach(() => {
    closeAllIndexes();
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    const logs = join(dir, "logs");
    mkdirSync(logs);
    return { dir, logs, state: join(dir, "state") };
  };
}
