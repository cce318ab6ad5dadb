import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { liveContext } from "@/server/source/context";
import { makeWorld, type RepairWorld, writeChat } from "@/test-support/repair/testing";
import { type DoctorStep, streamDoctorReport } from "./doctor-stream";

// The logs are read on the decode worker: on this thread (the server's event loop) the reading is refused.
vi.mock("@/lib/doctor", async (original) => ({
  ...(await original<typeof import("@/lib/doctor")>()),
  streamLogsDoctor: () => {
    throw new Error("the chat logs were read on the server's event loop");
  },
}));

// A listing of every chat's repairs never arrives (at 100,000 chats it took a minute): the report must not wait for it.
let offerArrives = true;
vi.mock("@/lib/repair", async (original) => {
  const lib = await original<typeof import("@/lib/repair")>();
  return {
    ...lib,
    listRepairable: (roots: never) => (offerArrives ? lib.listRepairable(roots) : new Promise(() => {})),
  };
});
vi.mock("@/server/workers/log-worker", async (original) => {
  const worker = await original<typeof import("@/server/workers/log-worker")>();
  return {
    ...worker,
    inWorker: (fn: string, ...args: unknown[]) =>
      (fn === "repairable" || fn === "listRepairable") && !offerArrives
        ? new Promise(() => {})
        : (worker.inWorker as (...a: unknown[]) => Promise<unknown>)(fn, ...args),
  };
});

let world: RepairWorld | null = null;
afterEach(() => {
  offerArrives = true;
  world?.remove();
  world = null;
});

describe("the Doctor page's report as it streams", () => {
  it("reads the chat logs on the decode worker, with the count read and each problem", async () => {
    world = makeWorld(false);
    for (const id of ["c-1", "c-2", "c-3"]) await writeChat(world.logs, id, { compress: false });
    writeFileSync(join(world.logs, "stray.txt"), "not a chat folder\n");
    const steps: DoctorStep[] = [];
    for await (const step of streamDoctorReport(liveContext({ ...world.roots, demo: false }))) steps.push(step);
    const logs = steps.filter((s) => s.section === "chat logs");
    expect(logs.at(-1)).toMatchObject({ finished: true, done: 3, total: 3 });
    const found = logs.flatMap((s) => s.items.map((i) => i.message));
    expect(found).toEqual([`${join(world.logs, "stray.txt")} is a regular file, not a folder; it is not read.`]);
  });

  it("sends the progress of chats without problems without waiting for the repairs on offer", async () => {
    world = makeWorld(false);
    for (const id of ["c-1", "c-2", "c-3"]) await writeChat(world.logs, id, { compress: false });
    offerArrives = false;
    const steps: DoctorStep[] = [];
    for await (const step of streamDoctorReport(liveContext({ ...world.roots, demo: false }))) steps.push(step);
    expect(steps.at(-1)).toMatchObject({ section: "chat logs", finished: true, done: 3, total: 3, items: [] });
  });

  it("links a problem to its repair, looked up for that chat alone (a chat stored twice)", async () => {
    world = makeWorld(false);
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/a" });
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/b" });
    await writeChat(world.logs, "c-fine", { compress: false, cwd: "/srv/a" });
    offerArrives = false;
    const steps: DoctorStep[] = [];
    for await (const step of streamDoctorReport(liveContext({ ...world.roots, demo: false }))) steps.push(step);
    const items = steps.flatMap((s) => s.items);
    expect(items.map((i) => i.message)).toEqual([expect.stringMatching(/^Chat "c-twice" is stored in two places: /)]);
    expect(items.flatMap((i) => i.links.map((l) => l.label))).toEqual(["Open chat c-twice", "Repair chat c-twice"]);
  });

  it("offers no repair in a source that cannot write", async () => {
    world = makeWorld(false);
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/a" });
    await writeChat(world.logs, "c-twice", { compress: false, cwd: "/srv/b" });
    const steps: DoctorStep[] = [];
    const ctx = { ...liveContext({ ...world.roots, demo: false }), canWrite: false };
    for await (const step of streamDoctorReport(ctx)) steps.push(step);
    expect(steps.flatMap((s) => s.items.flatMap((i) => i.links.map((l) => l.label)))).toEqual(["Open chat c-twice"]);
  });
});
