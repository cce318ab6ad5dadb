import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeDeadHolder } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { LOCK_LEFTOVER_SENTENCE, lockLeftoverProblems } from "./lock-leftovers";

// The race between a folder's listing and the read of a name in it, made in-process: `readdirSync` answers,
// then `afterListing` removes a file, as a process finishing its lock change would. (A file of its own:
// the mock stands for `node:fs` in every module this test file loads.)
const hook = vi.hoisted(() => ({ afterListing: undefined as (() => void) | undefined }));
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  return {
    ...actual,
    readdirSync: (...args: Parameters<typeof actual.readdirSync>) => {
      const names = actual.readdirSync(...args);
      hook.afterListing?.();
      return names;
    },
  };
});
afterEach(() => {
  hook.afterListing = undefined;
});

describe("lockLeftoverProblems and a leftover removed after the listing", () => {
  it("leaves out a name that is gone when it is read, and reports the rest", () => {
    const root = tempFolder("oda-lock-leftovers-race-");
    const dead = `${JSON.stringify(makeDeadHolder())}\n`;
    writeFileSync(join(root, ".lock.new-000000000000"), dead);
    writeFileSync(join(root, ".lock.stale-111111111111"), dead);
    hook.afterListing = () => {
      hook.afterListing = undefined; // once
      rmSync(join(root, ".lock.new-000000000000"));
    };
    expect(lockLeftoverProblems(root, [root])).toEqual([
      { path: ".lock.stale-111111111111", message: LOCK_LEFTOVER_SENTENCE },
    ]);
    expect(readdirSync(root)).toEqual([".lock.stale-111111111111"]);
  });
});
