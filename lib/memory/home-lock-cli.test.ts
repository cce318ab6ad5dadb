/**
 * `<home>/memory-history/.lock` holding no lock (issue 24), through the real CLI: a change is refused at
 * once with a sentence naming the path and what is there (it used to wait and answer "another Oda Admin
 * process is changing memories", forever), the doctor lists it, `repair list` offers setting it aside, and
 * `repair apply lock:memory-history` (the person's confirmation) keeps it in the admin state.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHome, memoryText, putFile } from "../../test-support/memory/testing";
import { brokenLockSentence } from "../fs/home-lock";

const bin = fileURLToPath(new URL("../../bin/oda-admin", import.meta.url));
const ID = "0a1b2c3d";

/** The parts of the CLI's JSON documents this test reads. */
interface Doc {
  error?: { code: string; message: string };
  sections?: { name: string; problems: { path: string; message: string }[] }[];
  repairs?: { id: string; kind: string; message: string }[];
  lock?: { keptIn: string };
}

function run(args: string[]): Promise<{ code: number; json: Doc }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args, "--json"], { encoding: "utf8" }, (error, stdout) => {
      let json = {};
      try {
        json = JSON.parse(stdout);
      } catch {}
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, json });
    });
  });
}

let home: string;
let state: string;
let cleanup: () => Promise<void>;
let lock: string;
beforeAll(async () => {
  ({ home, cleanup } = await makeHome());
  state = join(home, "..", "state");
  await putFile(home, `memory/global/${ID}`, memoryText("Reply language", "Short."));
  lock = join(home, "memory-history", ".lock");
  mkdirSync(lock, { recursive: true });
});
afterAll(() => cleanup());

describe("a folder where the home's memory lock belongs", () => {
  it("refuses a change at once, listed by the doctor, set aside only by the repair a person applies", async () => {
    const sentence = brokenLockSentence(lock, "a folder");
    const refused = await run(["memory", "set", ID, "--text", "Longer.", "--home", home, "--state", state]);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toEqual({ code: "refused", message: `The memory could not be changed: ${sentence}` });

    const doctor = await run(["doctor", "--home", home, "--state", state]);
    expect(doctor.code).toBe(1);
    const memory = doctor.json.sections?.find((s) => s.name === "memory");
    expect(memory?.problems).toContainEqual({ path: "memory-history/.lock", message: sentence });

    const list = await run(["repair", "list", "--home", home, "--state", state]);
    expect(list.json.repairs).toContainEqual(
      expect.objectContaining({ id: "lock:memory-history", kind: "lock", message: sentence }),
    );

    const preview = await run([
      "repair",
      "apply",
      "lock:memory-history",
      "--dry-run",
      "--home",
      home,
      "--state",
      state,
    ]);
    expect(preview.code).toBe(0);
    expect(statSync(lock).isDirectory()).toBe(true);

    const applied = await run(["repair", "apply", "lock:memory-history", "--home", home, "--state", state]);
    expect(applied.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    const kept = applied.json.lock?.keptIn as string;
    expect(kept.startsWith(join(state, "repairs", "locks"))).toBe(true);
    expect(statSync(join(kept, "lock")).isDirectory()).toBe(true);
    expect(JSON.parse(readFileSync(join(kept, "note.json"), "utf8"))).toMatchObject({ path: lock, what: "a folder" });

    const saved = await run(["memory", "set", ID, "--text", "Longer.", "--home", home, "--state", state]);
    expect(saved.code).toBe(0);
    expect(readdirSync(join(home, "memory-history"))).not.toContain(".lock");
  }, 120_000);
});
