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

let world: RepairWorld | null = null;
afterEach(() => {
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
});
