import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tempFolder } from "../../test-support/test-temp";
import { OdaError } from "../errors";
import { brokenLockSentence, inspectLockFile, lockFileProblem, withLockFile } from "./home-lock";
import { describeThisProcess } from "./lock";

// What another process does between two steps of `withLockFile`, and what the system refuses, made in-process:
// `around[name]` stands between home-lock.ts and `fs.promises[name]` (it gets the real call and its arguments).
// The mock stands for `node:fs` in every module this file loads, so these tests have a file of their own.
type Call = (...args: unknown[]) => Promise<unknown>;
const around = vi.hoisted(
  () => ({}) as Record<string, ((real: Call, ...args: unknown[]) => Promise<unknown>) | undefined>,
);
vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  const wrap =
    (name: "lstat" | "readlink" | "open" | "link" | "rename") =>
    (...args: unknown[]) => {
      const real = (actual.promises[name] as Call).bind(actual.promises);
      const fn = around[name];
      return fn ? fn(real, ...args) : real(...args);
    };
  const promises = {
    ...actual.promises,
    lstat: wrap("lstat"),
    readlink: wrap("readlink"),
    open: wrap("open"),
    link: wrap("link"),
    rename: wrap("rename"),
  };
  return { ...actual, promises, default: { ...actual, promises } };
});
afterEach(() => {
  for (const name of Object.keys(around)) delete around[name];
});

const busy = () => new OdaError("locked", "busy");
const broken = (problem: string) => new OdaError("refused", problem);
const systemError = (code: string) => Object.assign(new Error(`${code}: refused here`), { code });
/** A lock naming this process, judged live, that is not this `withLockFile`'s own content (no line end). */
const liveOther = () => JSON.stringify(describeThisProcess());
const staleRecord = () => JSON.stringify({ pid: 999_999_999, host: describeThisProcess().host, startedAt: "x" });

/** Runs `step` once, on the first call of `name` for `path` (`link`'s second argument), around the real call. */
function once(name: string, path: string, step: (real: Call, ...args: unknown[]) => Promise<unknown>) {
  let done = false;
  around[name] = (real, ...args) => {
    if (done || args[name === "link" ? 1 : 0] !== path) return real(...args);
    done = true;
    return step(real, ...args);
  };
}

describe("inspectLockFile when the system refuses or the name changes under it", () => {
  it("names the system's answer, or says it gave none", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    once("lstat", path, async () => {
      throw new Error("no code");
    });
    expect(await inspectLockFile(path)).toEqual({
      state: "broken",
      what: "cannot be looked at (the system answered an unknown error)",
    });
  });

  it("a link whose target cannot be read is a link to ?", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    symlinkSync("/nowhere", path);
    once("readlink", path, async () => {
      throw systemError("EIO");
    });
    expect(await inspectLockFile(path)).toEqual({
      state: "broken",
      what: "a symbolic link to ?, which does not exist",
    });
  });

  it("a lock file the system will not open is broken with its answer, and refused at once", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    writeFileSync(path, staleRecord());
    once("open", path, async () => {
      throw systemError("EACCES");
    });
    const what = "a file that cannot be read (the system answered EACCES)";
    expect(await inspectLockFile(path)).toEqual({ state: "broken", what });
    around.open = async (real, ...args) => {
      if (args[0] === path) throw new Error("no code");
      return real(...args);
    };
    const problem = brokenLockSentence(path, "a file that cannot be read (the system answered an unknown error)");
    expect(await lockFileProblem(path)).toBe(problem);
    await expect(withLockFile(path, { busy, broken, waitMs: 3_600_000 }, async () => "ran")).rejects.toThrow(problem);
    expect(readFileSync(path, "utf8")).toBe(staleRecord());
  });

  it("a lock removed between the look and the open is absent", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    writeFileSync(path, staleRecord());
    once("lstat", path, async (real, ...args) => {
      const st = await real(...args);
      rmSync(path);
      return st;
    });
    expect(await inspectLockFile(path)).toEqual({ state: "absent" });
  });

  it("a lock replaced by a FIFO between the look and the open reads as an empty file, without blocking", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    writeFileSync(path, staleRecord());
    once("lstat", path, async (real, ...args) => {
      const st = await real(...args);
      rmSync(path);
      execFileSync("mkfifo", [path]);
      return st;
    });
    expect(await inspectLockFile(path)).toEqual({ state: "broken", what: "an empty file" });
  });
});

describe("withLockFile when another process acts between its steps", () => {
  it("takes the lock when its holder releases it right after the create found it", async () => {
    const path = join(tempFolder("oda-home-lock-faults-"), ".lock");
    writeFileSync(path, liveOther());
    once("link", path, async (real, ...args) => {
      await real(...args).finally(() => rmSync(path)); // EEXIST, then the holder is done
    });
    expect(await withLockFile(path, { busy, waitMs: 0 }, async () => readFileSync(path, "utf8"))).toBe(
      `${liveOther()}\n`,
    );
  });

  it("says 'not a lock' of a broken lock gone by the time its sentence is made", async () => {
    const dir = tempFolder("oda-home-lock-faults-");
    const path = join(dir, ".lock");
    mkdirSync(path);
    let looks = 0;
    around.lstat = async (real, ...args) => {
      const st = await real(...args);
      if (args[0] === path && ++looks === 1) rmdirSync(path); // after acquire's look, before the sentence's
      return st;
    };
    const run = withLockFile(path, { busy, broken, waitMs: 3_600_000 }, async () => "ran");
    await expect(run).rejects.toThrow(brokenLockSentence(path, "not a lock"));
  });

  it("takes over a stale lock that another process removed first", async () => {
    const dir = tempFolder("oda-home-lock-faults-");
    const path = join(dir, ".lock");
    writeFileSync(path, staleRecord());
    once("rename", path, async (real, ...args) => {
      rmSync(path);
      return real(...args); // ENOENT
    });
    expect(await withLockFile(path, { busy, waitMs: 0 }, async () => "ran")).toBe("ran");
    expect(readdirSync(dir)).toEqual([]);
  });

  it("puts back a fresh lock another process made in place of the stale one, and waits for it", async () => {
    const dir = tempFolder("oda-home-lock-faults-");
    const path = join(dir, ".lock");
    writeFileSync(path, staleRecord());
    once("rename", path, async (real, ...args) => {
      rmSync(path);
      writeFileSync(path, liveOther()); // the other process took over first
      return real(...args);
    });
    let ran = false;
    const run = withLockFile(path, { busy, waitMs: 50 }, async () => {
      ran = true;
    });
    await expect(run).rejects.toThrow(/^busy$/);
    expect(ran).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(liveOther());
    expect(readdirSync(dir)).toEqual([".lock"]);
  });

  it("throws what the system answers when the stale lock cannot be moved aside, leaving it", async () => {
    const dir = tempFolder("oda-home-lock-faults-");
    const path = join(dir, ".lock");
    writeFileSync(path, staleRecord());
    once("rename", path, async () => {
      throw systemError("EBUSY");
    });
    await expect(withLockFile(path, { busy, waitMs: 0 }, async () => "ran")).rejects.toThrow("EBUSY: refused here");
    expect(readdirSync(dir)).toEqual([".lock"]);
    expect(readFileSync(path, "utf8")).toBe(staleRecord());
  });

  it("throws what the system answers when the lock cannot be linked into place, leaving nothing", async () => {
    const dir = tempFolder("oda-home-lock-faults-");
    const path = join(dir, ".lock");
    once("link", path, async () => {
      throw systemError("EPERM");
    });
    let ran = false;
    const run = withLockFile(path, { busy, waitMs: 0 }, async () => {
      ran = true;
    });
    await expect(run).rejects.toThrow("EPERM: refused here");
    expect(ran).toBe(false);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });
});
