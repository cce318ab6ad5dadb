import { promises as fsp } from "node:fs";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { freshHomePerTest } from "../../test-support/memory/test-home";
import { makeClock } from "../../test-support/memory/testing";
import { changeMemory, createMemory, deleteMemory } from ".";

let home: string;
freshHomePerTest((h) => (home = h));
// registered after the home's hooks, so it runs before the home is removed (vitest runs after-hooks as a stack)
afterEach(() => vi.restoreAllMocks());

/** Records renames (`rename <target name>`) and fsyncs (`sync <file name>` / `sync <folder>/`) in the order they finish. */
function traceWrites(): string[] {
  const trace: string[] = [];
  const rename = fsp.rename.bind(fsp);
  const open = fsp.open.bind(fsp);
  vi.spyOn(fsp, "rename").mockImplementation(async (from, to) => {
    await rename(from, to);
    trace.push(`rename ${basename(String(to))}`);
  });
  vi.spyOn(fsp, "open").mockImplementation((async (path: string, flags?: number, mode?: number) => {
    const handle = await open(path, flags, mode);
    const sync = handle.sync.bind(handle);
    handle.sync = async () => {
      await sync();
      const name = basename(path);
      trace.push(name.includes(".tmp-") ? `sync ${name.slice(1, name.indexOf(".tmp-"))}` : `sync ${name}/`);
    };
    return handle;
  }) as typeof fsp.open);
  return trace;
}

const at = (trace: string[], step: string, from = 0) => {
  const i = trace.indexOf(step, from);
  expect(i, `${step} in ${trace.join(", ")}`).toBeGreaterThanOrEqual(0);
  return i;
};

describe("the order of a save's writes", () => {
  it("makes the version durable before the file is replaced, and the file before state.json", async () => {
    const now = makeClock("2026-11-29T18:24:08.123Z", 1000);
    const { memory } = await createMemory(home, "w", { title: "T", text: "one" }, { now });
    const id = memory!.id;
    const trace = traceWrites();
    const r = await changeMemory(home, "w", id, { text: "two" }, { now });
    const version = r.keptVersion as string;
    // each temp file is fsynced before its rename
    expect(at(trace, `sync ${version}`)).toBeLessThan(at(trace, `rename ${version}`));
    expect(at(trace, `sync ${id}`)).toBeLessThan(at(trace, `rename ${id}`));
    expect(at(trace, "sync state.json")).toBeLessThan(at(trace, "rename state.json"));
    // version renamed, history folder fsynced, only then the file renamed
    const historySync = at(trace, `sync ${id}/`, at(trace, `rename ${version}`));
    expect(historySync).toBeLessThan(at(trace, `rename ${id}`));
    // the intent (what state.json will say) is durable before the file is replaced, in the same folder fsync
    expect(at(trace, "rename state.next.json")).toBeLessThan(historySync);
    // file renamed, set folder fsynced, only then state.json renamed, then the history folder fsynced again
    const setSync = at(trace, "sync w/", at(trace, `rename ${id}`));
    expect(setSync).toBeLessThan(at(trace, "rename state.json"));
    expect(at(trace, `sync ${id}/`, at(trace, "rename state.json"))).toBe(trace.length - 1);
    // first the memory lock: its file synced before it is linked into place, then its folder
    expect(trace.slice(0, 2)).toEqual([expect.stringMatching(/^sync \.lock\.new-/), "sync memory-history/"]);
    // then the version, the file, state.json and the intent (files), the history folder twice and the set folder once
    expect(trace.slice(2).filter((s) => s.startsWith("sync"))).toHaveLength(7);
  });

  it("makes the version and deleted.json durable (one folder fsync) before the file is removed", async () => {
    const { memory } = await createMemory(home, null, { title: "T", text: "one" });
    const id = memory!.id;
    const trace = traceWrites();
    const r = await deleteMemory(home, null, id);
    const historySync = at(trace, `sync ${id}/`);
    // the file is moved aside (then compared with the version kept), not unlinked in place
    const removal = trace.findIndex((s) => s.startsWith(`rename .${id}.tmp-`));
    expect(at(trace, `rename ${r.keptVersion}`)).toBeLessThan(historySync);
    expect(at(trace, "rename deleted.json")).toBeLessThan(historySync);
    expect(historySync).toBeLessThan(removal);
    expect(removal).toBeLessThan(at(trace, "sync global/"));
    expect(trace.filter((s) => s === `sync ${id}/`)).toHaveLength(1);
    await expect(fsp.stat(join(home, "memory/global", id))).rejects.toMatchObject({ code: "ENOENT" });
  });
});
