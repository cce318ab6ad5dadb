import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat } from "../test-support/chats/testing";
import { groupName } from "./chats";
import { type DoctorProgress, logsDoctor, PAGE_READ, streamLogsDoctor } from "./doctor";

/**
 * The Doctor page reads the first chats while the log folder is still walked (`PAGE_READ`): at 100,000 chats
 * the walk of every chat folder alone took 1.4 s before anything reached the page (issue 28).
 */

let root: string;
let logs: string;
const CWDS = ["/g0", "/g1", "/g2", "/g3"];

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-doctor-walk-"));
  logs = join(root, "logs");
  for (const cwd of CWDS)
    for (const id of [
      `c${cwd.slice(2)}-a`,
      `c${cwd.slice(2)}-b`,
      ...(cwd === "/g1" || cwd === "/g3" ? ["twice"] : []),
    ]) {
      const w = createChat(logs, { id, cwd, created: "2026-11-29T08:00:00.000Z" });
      await w.appendTurn({ user: `question in ${cwd}`, assistant: "answer" });
      await w.close();
    }
  // Folder names that do not decode: one in the first group folder walked, one in the last.
  mkdirSync(join(logs, groupName("/g0"), "bad%zz"));
  mkdirSync(join(logs, groupName("/g3"), "bad%zz"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the doctor's chat logs, read as the log folder is walked", () => {
  it("yields its first problems and progress before the walk of every group folder has ended", async () => {
    let walked = 0;
    let letGo: () => void = () => {};
    const held = new Promise<void>((resume) => {
      letGo = resume;
    });
    // The walk waits after the first group folder until the test has the first step.
    const walkTurn = () => (++walked === 1 ? held : Promise.resolve());
    const steps = streamLogsDoctor(logs, null, { ...PAGE_READ, batchSize: 2, walkTurn });
    const first = (await steps.next()).value as DoctorProgress;
    expect(walked).toBe(1);
    expect(first.done).toBe(2);
    expect(first.total).toBeNull();
    expect(first.problems).toEqual([
      { path: `${groupName("/g0")}/bad%zz`, message: `The folder name "bad%zz" does not decode to a chat id.` },
    ]);
    letGo();
    const rest: DoctorProgress[] = [];
    for (let r = await steps.next(); !r.done; r = await steps.next()) rest.push(r.value);
    expect(walked).toBe(CWDS.length);
    const last = rest.at(-1) as DoctorProgress;
    expect(last.total).not.toBeNull();
    expect(last.done).toBe(last.total);
    expect(rest.slice(0, -1).every((s) => s.total === null || s.total === last.total)).toBe(true);
    // Every problem the doctor finds after a whole walk, in the same words: the chat stored twice included.
    const found = [first, ...rest].flatMap((s) => s.problems.map((p) => `${p.path}: ${p.message}`));
    const whole = (await logsDoctor(logs, null)).problems.map((p) => `${p.path}: ${p.message}`);
    expect(whole).toContainEqual(expect.stringContaining(`Chat "twice" is stored in two places: `));
    expect(found.sort()).toEqual(whole.sort());
  });
});
