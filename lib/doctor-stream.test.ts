import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createChat } from "../test-support/chats/testing";
import { groupName } from "./chats";
import { logsDoctor, streamLogsDoctor } from "./doctor";

let root: string;
let logs: string;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "oda-doctor-stream-"));
  logs = join(root, "logs");
  for (let i = 0; i < 5; i++) {
    const w = createChat(logs, { id: `c-${i}`, cwd: "/w", created: "2026-11-29T08:00:00.000Z" });
    await w.appendTurn({ user: `question ${i}`, assistant: "answer" });
    await w.close();
  }
  // A chat folder whose name does not decode: a problem of the folder.
  mkdirSync(join(logs, groupName("/w"), "bad%zz"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("the doctor's chat logs, streamed", () => {
  it("says how far it has read after each batch and finds what the whole report finds", async () => {
    const steps = [];
    for await (const step of streamLogsDoctor(logs, null, { batchSize: 2 })) steps.push(step);
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.map((s) => s.done)).toEqual([...steps.map((s) => s.done)].sort((a, b) => a - b));
    expect(steps.at(-1)?.done).toBe(steps.at(-1)?.total);
    expect(steps.at(-1)?.total).toBe(5);
    const whole = await logsDoctor(logs, null, { batchSize: 2 });
    expect(steps.flatMap((s) => s.problems)).toEqual(whole.problems);
    expect(whole.problems.map((p) => p.path)).toContain(`${groupName("/w")}/bad%zz`);
  });
});
