import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { getPriority } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { plantSecrets } from "../../test-support/bundle/testing";
import { tempFolder } from "../../test-support/test-temp";
import { isOdaError } from "../errors";
import { BACKGROUND_NICE } from "../thread-priority";
import { type BundleProgress, createBundle } from "./create";
import { BUNDLE_HEAP_MB, bundleThreadFile, CANCELLED, runBundleThread } from "./in-worker";

const scope = {
  chats: "all" as const,
  since: null,
  memory: true,
  kinds: ["email" as const, "key" as const],
  keywords: [],
  dropText: false,
};

describe("a bundle made on a bundle thread", () => {
  it("writes the same bundle as in the process, relaying its progress", async () => {
    const base = tempFolder("oda-bundle-thread-");
    const roots = await plantSecrets(base);
    const file = bundleThreadFile();
    expect(file).not.toBeNull();
    const seen: BundleProgress[] = [];
    const target = join(base, "thread.tar.gz");
    const made = await runBundleThread(file as string, { roots, scope, target, version: "t" }, (p) => seen.push(p));
    expect(made.file).toBe(target);
    expect(existsSync(target) && existsSync(`${target}.map.json`)).toBe(true);
    expect(seen.map((p) => p.phase)).toContain("reading");
    expect(seen.at(-1)).toMatchObject({ phase: "writing" });
    const here = await createBundle(roots, scope, join(base, "here.tar.gz"), { version: "t" });
    expect(made.manifest.counts).toEqual(here.manifest.counts);
    // Every file the same, but the report's title, which holds the moment it was made.
    const files = (m: typeof here.manifest) =>
      m.files.filter((f) => f.path !== "doctor.txt").map((f) => [f.path, f.sha256]);
    expect(files(made.manifest)).toEqual(files(here.manifest));

    // A preview (no target) writes nothing and counts the same.
    const preview = await runBundleThread(file as string, { roots, scope, target: null, version: "t" });
    expect(preview.file).toBeNull();
    // (bytes aside: a preview lists a log that will be rewritten at its stored size)
    expect({ ...preview.manifest.counts, bytes: 0 }).toEqual({ ...here.manifest.counts, bytes: 0 });
  });

  it("hands back the thread's refusal as the same error, and a thread out of memory as a sentence", async () => {
    const base = tempFolder("oda-bundle-thread-");
    const roots = await plantSecrets(base);
    const file = bundleThreadFile() as string;
    const refused = await runBundleThread(file, {
      roots,
      scope: { ...scope, chats: ["no-such-chat"] },
      target: join(base, "x.tar.gz"),
      version: "t",
    }).catch((e: unknown) => e);
    expect(isOdaError(refused)).toBe(true);
    expect((refused as Error).message).toContain("no-such-chat");

    const target = join(base, "tiny.tar.gz");
    const died = await runBundleThread(file, { roots, scope, target, version: "t" }, undefined, 1).catch(
      (e: unknown) => e,
    );
    expect((died as Error).message).toBe(
      "Making the bundle stopped unexpectedly (it needed more memory than a bundle is given); nothing was written.",
    );
    expect(existsSync(target)).toBe(false);
  });

  it("ends the thread when its page went away (the signal aborts), and leaves no archive", async () => {
    const base = tempFolder("oda-bundle-thread-");
    const roots = await plantSecrets(base);
    const target = join(base, "abandoned.tar.gz");
    const abort = new AbortController();
    let progressAfter = 0;
    const run = runBundleThread(
      bundleThreadFile() as string,
      { roots, scope, target, version: "t" },
      () => {
        if (abort.signal.aborted) progressAfter++;
        else abort.abort();
      },
      BUNDLE_HEAP_MB,
      abort.signal,
    );
    const ended = await run.catch((e: unknown) => e);
    expect(isOdaError(ended)).toBe(true);
    expect((ended as Error).message).toBe(CANCELLED);
    expect(existsSync(target)).toBe(false);
    // The thread is gone: no progress arrives after a while.
    const before = progressAfter;
    await new Promise((r) => setTimeout(r, 300));
    expect(progressAfter).toBe(before);
  });

  // Not where this process already runs at nice 10 or above (`nice npm test`): every thread would be there.
  it.skipIf(getPriority() >= BACKGROUND_NICE)(
    "runs a background task's thread at a lower priority (nice 10), and that thread alone",
    async () => {
      const base = tempFolder("oda-bundle-thread-");
      const roots = await plantSecrets(base);
      // Enough memories that the thread reports progress many times before it ends.
      const global = join(roots.home, "memory", "global");
      mkdirSync(global, { recursive: true });
      for (let i = 0; i < 600; i++)
        writeFileSync(
          join(global, (0x1000 + i).toString(16).padStart(8, "0")),
          `---\ntitle: Note ${i}\nenabled: true\nsource: user\ncreated: 2026-11-29T18:24:08.123Z\n---\n\nText ${i}.\n`,
        );
      /** Each of this process's threads' nice value (field 19 of /proc/<pid>/task/<tid>/stat), by thread id. */
      const nices = () =>
        new Map(
          readdirSync("/proc/self/task").flatMap((tid): [number, number][] => {
            try {
              const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
              return [[Number(tid), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])]];
            } catch {
              return []; // a thread that ended between the listing and the read
            }
          }),
        );
      const lowered = async (background: boolean) => {
        const seen = new Set<number>();
        let looks = 0;
        await runBundleThread(
          bundleThreadFile() as string,
          { roots, scope, target: null, version: "t", background },
          () => {
            looks++;
            for (const [tid, nice] of nices()) if (nice === BACKGROUND_NICE) seen.add(tid);
          },
        );
        return { seen: [...seen], looks };
      };
      const before = getPriority();
      const background = await lowered(true);
      expect(background.seen).toHaveLength(1);
      expect(background.seen[0]).not.toBe(process.pid); // not this process's main thread
      expect(nices().get(process.pid)).toBe(before);
      const plain = await lowered(false);
      expect(background.looks).toBeGreaterThan(1);
      expect(plain.looks).toBeGreaterThan(1);
      expect(plain.seen).toEqual([]);
    },
  );
});
