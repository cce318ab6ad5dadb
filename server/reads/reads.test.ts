import { afterEach, describe, expect, it } from "vitest";
import { createMemory, findMemory, memoryOverview } from "@/lib/memory";
import { MISSING_ROOT } from "@/lib/roots";
import { liveContext, type SourceContext } from "@/server/source/context";
import { noSuchSource, SourceRegistry } from "@/server/source/registry";
import { makeWorld, type RepairWorld, snapshotFiles, writeChat } from "@/test-support/repair/testing";
import { READS, type ReadName, runRead } from ".";

let world: RepairWorld | null = null;
afterEach(() => {
  world?.remove();
  world = null;
});

/** A live installation with a memory and a closed chat, and its context as a request's edge makes it. */
async function live() {
  world = makeWorld(false);
  const made = await createMemory(world.home, null, { title: "Reports", text: "Monthly reports go to Ana." });
  await writeChat(world.logs, "c-one", { compress: false });
  const ctx = liveContext({ ...world.roots, demo: false });
  return { world, ctx, id: made.memory!.id };
}

describe("the reads (server/reads/): plain functions of the request's source", () => {
  it("answer the prefetch and the GET route alike, in the actions' result shape", async () => {
    const { world, ctx, id } = await live();
    expect(await runRead("memory.one", { workspace: null, id }, () => ctx)).toEqual({
      ok: true,
      data: await findMemory(world.home, null, id),
    });
    expect(await runRead("memory.overview", {}, () => ctx)).toEqual({
      ok: true,
      data: await memoryOverview(world.home),
    });
    // A `source` key in the input is ignored: the source is the one the caller's edge made.
    const other = await runRead("memory.one", { workspace: null, id, source: "elsewhere" }, () => ctx);
    expect(other.ok).toBe(true);
  });

  it("refuse a bad input with its field, a closed source with its sentence, a missing root with its one sentence", async () => {
    const { ctx } = await live();
    expect(await runRead("memory.one", { workspace: null, id: "../x" }, () => ctx)).toMatchObject({
      ok: false,
      error: { code: "bad_input", message: "The request was not valid.", fieldErrors: { id: expect.any(String) } },
    });
    const registry = new SourceRegistry({ ...ctx.roots });
    expect(await runRead("memory.overview", {}, () => registry.resolve("b-gone"))).toEqual({
      ok: false,
      error: { code: "not_found", message: noSuchSource("b-gone") },
    });
    const noLogs: SourceContext = { ...ctx, roots: { ...ctx.roots, logs: null }, log: { dir: null, compress: false } };
    expect(await runRead("search.results", { query: "reports" }, () => noLogs)).toEqual({
      ok: false,
      error: { code: "not_found", message: MISSING_ROOT.logs },
    });
  });

  it("change nothing in the Oda home or the log folder, whichever is read", async () => {
    const { world, ctx, id } = await live();
    const inputs: Partial<Record<ReadName, unknown>> = {
      "memory.set": { workspace: null },
      "memory.one": { workspace: null, id },
      "memory.editor-context": { workspace: null, id },
      "memory.history": { workspace: null, id },
      "memory.payload": { workspace: null },
      "memory.form-refusals": { compress: true },
      "search.results": { query: "question" },
      "repairs.preview": { target: { kind: "form", chat: "c-one" } },
      "repairs.copies": { chat: "c-one" },
      "chats.find": { id: "c-one", query: "answer", from: 1 },
      "chats.next-error": { id: "c-one", from: 1 },
      "chats.seek": { id: "c-one", seek: { kind: "user" }, from: 0, forward: true },
      "bundles.job": { id: "0123456789abcdef" },
      "chats.window": {
        view: "",
        sort: "lastActivity",
        dir: "desc",
        grouped: true,
        filters: { group: "", lock: "", problemsOnly: false, format: "", find: "", started: "", tz: "" },
        from: 0,
        to: 100,
      },
    };
    const before = { home: snapshotFiles(world.home), logs: snapshotFiles(world.logs) };
    // search.status may start an index refresh on its own thread (in the admin state): left out of a unit test.
    const names = (Object.keys(READS) as ReadName[]).filter((n) => n !== "search.status");
    const answers = await Promise.all(names.map((name) => runRead(name, inputs[name] ?? {}, () => ctx)));
    // Refused with a sentence: no index yet, no such job, nothing to repair in a healthy chat, no lock to set aside.
    const refusable = ["search.results", "bundles.job", "repairs.preview", "repairs.lock-preview"];
    const failed = names.filter((name, i) => !answers[i]?.ok && !refusable.includes(name));
    expect(failed).toEqual([]);
    expect({ home: snapshotFiles(world.home), logs: snapshotFiles(world.logs) }).toEqual(before);
  });
});
