/**
 * Vitest hooks for a fresh temp Oda home per test. Apart from `testing.ts`
 * because that one is also loaded by Playwright specs and harnesses, where
 * importing vitest would throw.
 */
import { afterEach, beforeEach } from "vitest";
import { makeHome } from "./testing";

/** Before each test makes a fresh home and hands its path to `set`; after it, removes the home. */
export function freshHomePerTest(set: (home: string) => void): void {
  let cleanup: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const made = await makeHome();
    cleanup = made.cleanup;
    set(made.home);
  });
  afterEach(() => cleanup?.());
}
