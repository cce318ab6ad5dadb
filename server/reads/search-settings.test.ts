import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { main } from "@/cli/main";
import { closeAllIndexes, refreshIndex } from "@/lib/search-index";
import { liveContext } from "@/server/source/context";
import { makeWorld, type RepairWorld, writeChat } from "@/test-support/repair/testing";
import { readIndexFolders, readSearch } from "./search";

// A search never needs the log folder's form (`sessions.compress` in the Oda home's settings.json): the index
// already holds the text. Every open goes through lib/fs/open-regular (the one settings reader included),
// so the opener is watched for the home's settings.json while only a search runs. (The CLI's edge reads the
// admin state's settings.json once per run, for the log limits: that one is the run's context, not the search.)

const opened = vi.hoisted(() => ({ paths: [] as string[] }));

vi.mock("@/lib/fs/open-regular", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/fs/open-regular")>();
  return {
    ...real,
    openRegularSync: (path: string, ...rest: unknown[]) => {
      opened.paths.push(path);
      return (real.openRegularSync as (...a: unknown[]) => ReturnType<typeof real.openRegularSync>)(path, ...rest);
    },
    openRegular: (path: string, ...rest: unknown[]) => {
      opened.paths.push(path);
      return (real.openRegular as (...a: unknown[]) => ReturnType<typeof real.openRegular>)(path, ...rest);
    },
    readFileStartSync: (path: string, ...rest: unknown[]) => {
      opened.paths.push(path);
      return (real.readFileStartSync as (...a: unknown[]) => ReturnType<typeof real.readFileStartSync>)(path, ...rest);
    },
  };
});

/** The opens of the Oda home's settings.json since the index was built. */
const settingsRead = () => opened.paths.filter((p) => p === join((world as RepairWorld).home, "settings.json"));

let world: RepairWorld | null = null;
beforeEach(async () => {
  world = makeWorld(false);
  await writeChat(world.logs, "c-one", { compress: false });
  // The index is built beforehand (a refresh needs the form, and reads the settings for it).
  await refreshIndex(world.state, world.logs, { compress: false });
  opened.paths.length = 0;
});
afterEach(() => {
  closeAllIndexes();
  world?.remove();
  world = null;
});

describe("a search reads no settings.json", () => {
  it("in the dashboard: the results and the folders of a live source's context", async () => {
    const ctx = liveContext({ ...(world as RepairWorld).roots, demo: false });
    const result = await readSearch(ctx, { query: "question" });
    expect(result.groups.map((g) => g.id)).toEqual(["c-one"]);
    expect(readIndexFolders(ctx)).toEqual(["/home/ana/reports"]);
    expect(settingsRead()).toEqual([]);
  });

  it("in the CLI: oda-admin search --no-refresh", async () => {
    const w = world as RepairWorld;
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (t: string) => out.push(t), err: (t: string) => err.push(t) };
    const argv = ["search", "question", "--no-refresh", "--json", "--home", w.home, "--logs", w.logs];
    const code = await main([...argv, "--state", w.state], io);
    expect({ code, err: err.join("\n") }).toEqual({ code: 0, err: "" });
    expect(JSON.parse(out.join("\n")).groups.map((g: { id: string }) => g.id)).toEqual(["c-one"]);
    expect(settingsRead()).toEqual([]);
  });
});
