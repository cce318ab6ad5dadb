/** Vitest helper: temp log and state folders for index tests, removed (indexes closed first) after each test. */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { tempFolder } from "../test-temp";
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
  // Registered after test-temp's removal hook, so it runs first (vitest runs after-hooks as a stack).
  afterEach(() => closeAllIndexes());
  return () => {
    const dir = tempFolder(prefix);
    const logs = join(dir, "logs");
    mkdirSync(logs);
    return { dir, logs, state: join(dir, "state") };
  };
}
