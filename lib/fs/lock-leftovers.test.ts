import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createChat, makeDeadHolder } from "../../test-support/chats/testing";
import { tempFolder } from "../../test-support/test-temp";
import { runDoctor } from "../doctor";
import { describeThisProcess } from "./lock";
import { LOCK_LEFTOVER_SENTENCE, lockLeftoverProblems } from "./lock-leftovers";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));

/** Roots with one chat, and the files a killed lock change leaves: the holder's record under a temporary name. */
async function rootsWithLeftovers() {
  const base = tempFolder("oda-lock-leftovers-");
  const home = join(base, "home");
  const logs = join(base, "logs");
  const history = join(home, "memory-history");
  mkdirSync(history, { recursive: true });
  const w = createChat(logs, { id: "c-1", cwd: "/srv/a", created: "2026-11-20T09:00:00.000Z" });
  await w.appendTurn({ user: "Hello", assistant: "Hi", ts: "2026-11-20T09:01:00.000Z" });
  await w.close();
  const dead = `${JSON.stringify(makeDeadHolder())}\n`;
  writeFileSync(join(history, ".lock.new-0123456789ab"), dead);
  writeFileSync(join(history, ".lock.stale-ba9876543210"), dead.slice(0, 9)); // cut short by the kill
  // Being made right now by a live process: not a leftover.
  writeFileSync(join(history, ".lock.new-aaaaaaaaaaaa"), `${JSON.stringify(describeThisProcess())}\n`);
  writeFileSync(join(w.dir, "session.lock.stale-00000000000f"), dead);
  return { home, logs, chatDir: w.dir };
}

describe("temporary lock files left by an interrupted lock change", () => {
  it("are reported by the doctor in the home and in chat folders, and left in place", async () => {
    const { home, logs, chatDir } = await rootsWithLeftovers();
    const report = await runDoctor({ home, logs });
    const section = (name: string) => report.sections.find((s) => s.name === name)?.problems;
    expect(section("memory")).toEqual([
      { path: "memory-history/.lock.new-0123456789ab", message: LOCK_LEFTOVER_SENTENCE },
      { path: "memory-history/.lock.stale-ba9876543210", message: LOCK_LEFTOVER_SENTENCE },
    ]);
    expect(section("chat logs")).toEqual([
      { path: "--%2Fsrv%2Fa--/c-1/session.lock.stale-00000000000f", message: LOCK_LEFTOVER_SENTENCE },
    ]);
    expect(report.ok).toBe(false);
    // Reported, never removed: a chat folder is changed only by a repair a person confirmed.
    expect(existsSync(join(chatDir, "session.lock.stale-00000000000f"))).toBe(true);
  });

  it("make `oda-admin doctor` exit 1 with the sentence", async () => {
    const { home, logs } = await rootsWithLeftovers();
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((done) =>
      execFile(process.execPath, [bin, "doctor", "--home", home, "--logs", logs], { encoding: "utf8" }, (e, out) =>
        done({ code: e ? ((e as { code?: number }).code ?? 1) : 0, stdout: out }),
      ),
    );
    expect(code).toBe(1);
    expect(stdout).toContain(`  memory-history/.lock.new-0123456789ab: ${LOCK_LEFTOVER_SENTENCE}`);
    expect(stdout).toContain(`  --%2Fsrv%2Fa--/c-1/session.lock.stale-00000000000f: ${LOCK_LEFTOVER_SENTENCE}`);
    expect(stdout).not.toContain(".lock.new-aaaaaaaaaaaa");
  });
});

// Written from the survivors of `npm run mutate` (docs/mutation.md).
describe("lockLeftoverProblems", () => {
  it("reports exactly the temporary names, sorted, relative to the root; a live one, a gone folder and a lock are not", () => {
    const root = tempFolder("oda-lock-leftovers-names-");
    const folder = join(root, "a", "b");
    mkdirSync(folder, { recursive: true });
    const dead = `${JSON.stringify(makeDeadHolder())}\n`;
    const leftovers = [".lock.stale-ffffffffffff", "session.lock.aside-0123456789ab", ".lock.new-000000000000"];
    const not = [
      ".lock", // the lock itself
      "session.lock",
      ".lock.new-0123456789a", // 11 hex digits
      ".lock.new-0123456789abc", // 13
      ".lock.new-0123456789AB", // upper case: never written
      ".lock.new-0123456789ab~", // something after the hex
      ".lock.old-0123456789ab",
      "lock.new-0123456789ab", // no dot before "lock"
      "x.lockxnew-0123456789ab",
    ];
    for (const name of [...leftovers, ...not]) writeFileSync(join(folder, name), dead);
    writeFileSync(join(folder, ".lock.new-aaaaaaaaaaab"), ""); // empty: cut short, still a leftover
    writeFileSync(join(folder, ".lock.new-aaaaaaaaaaaa"), `${JSON.stringify(describeThisProcess())}\n`); // live
    const problems = lockLeftoverProblems(root, [join(root, "gone"), folder]);
    expect(problems).toEqual(
      [...leftovers, ".lock.new-aaaaaaaaaaab"]
        .sort()
        .map((name) => ({ path: `a/b/${name}`, message: LOCK_LEFTOVER_SENTENCE })),
    );
    expect(LOCK_LEFTOVER_SENTENCE).toBe(
      "A temporary lock file left by an interrupted Oda Admin process; it locks nothing, and nothing removes it. Delete it when no Oda Admin process is running.",
    );
  });

  it("sorts the names as strings, not in the system's byte order", () => {
    // UTF-8 puts U+FF01 before U+1F600, and libuv lists a folder in that byte order; a JavaScript string
    // sort (UTF-16 code units) puts the surrogate pair of U+1F600 first.
    const root = tempFolder("oda-lock-leftovers-order-");
    const names = ["\uFF01.lock.new-000000000000", "\u{1F600}.lock.new-000000000000", "a.lock.new-000000000000"];
    for (const name of names) writeFileSync(join(root, name), "");
    expect(lockLeftoverProblems(root, [root]).map((p) => p.path)).toEqual([
      "a.lock.new-000000000000",
      "\u{1F600}.lock.new-000000000000",
      "\uFF01.lock.new-000000000000",
    ]);
  });
});
