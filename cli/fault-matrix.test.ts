import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultPaths, makeFaultTree, PERMISSION } from "../e2e/fault-tree";
import { createBundle, readBundle } from "../lib/bundle";
import { listAllChats } from "../lib/chats";
import { makeDemo } from "../scripts/demo";
import { type CliRun, runCli } from "../test-support/run-cli";

/**
 * The fault matrix (issue 24): every whole-folder command of the CLI over one
 * demo-like tree broken in many small ways at once, run as an unprivileged
 * user (`setpriv`, uid 65534) as a support person running the tool as another
 * user would: a log, a checkpoint, a lock, a chat folder, a working-folder
 * group and a memory file it may not read, a FIFO named like a log and a link
 * loop named like one. Each command must go on with the rest, name each fault
 * with its path and what the system answered, say how many were left out and
 * exit 1, never "Unexpected error" or `{"code": "unexpected"}`. Folders
 * vanishing mid-run are injected in this process (a chat folder removed
 * between two batches of the list, and while a bundle is collected).
 *
 * Dropping privileges needs root (CI runs as root); elsewhere those cases are
 * skipped with that reason, and the vanishing cases still run. The server's
 * side of the matrix is `e2e/fault-matrix.spec.ts`, over the same tree
 * (`e2e/fault-tree.ts`).
 */

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
// A busy machine starts tsx slowly; this bounds a hang, not speed.
const RUN_MS = 120_000;

let base: string;
let home: string;
let logs: string;
let state: string;
/** Each fault's path, by name ("" for a lock when the demo has none). */
const fault: FaultPaths = {
  log: "",
  checkpoint: "",
  chatFolder: "",
  fifo: "",
  loop: "",
  lock: "",
  group: "",
  memory: "",
};

function asNobody(args: string[]): Promise<CliRun> {
  return runCli([...args, "--home", home, "--logs", logs, "--state", state], {
    wrapper: ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"],
    env: { HOME: state },
    hangMs: RUN_MS,
  });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "oda-fault-matrix-"));
  const tree = await makeFaultTree(base, isRoot ? NOBODY : null);
  ({ home, logs, state } = tree);
  Object.assign(fault, tree.fault);
}, 120_000);

afterAll(() => {
  for (const p of [fault.chatFolder, fault.group]) if (p && existsSync(p)) chmodSync(p, 0o755);
  rmSync(base, { recursive: true, force: true });
});

/** What every command's output must not be. */
function expectNoUnexpected(run: CliRun): void {
  expect(run.out + run.err).not.toMatch(/Unexpected error|"unexpected"/);
}

/** The faults an unprivileged user meets in the log folder, each named with its path. */
function expectLogFaultsNamed(text: string): void {
  for (const name of ["log", "chatFolder", "group", "lock"] as const) {
    if (!fault[name]) continue;
    const at = text.indexOf(`${fault[name]} cannot be read`);
    expect(at, `${name} ${fault[name]} named in:\n${text}`).toBeGreaterThanOrEqual(0);
    expect(text.slice(at)).toMatch(PERMISSION);
  }
}

describe.skipIf(!isRoot)("the fault matrix, as an unprivileged user (needs root to drop privileges)", () => {
  it(
    "sessions list: every other chat listed, each fault named, the count left out, exit 1; --json carries them as problems",
    async () => {
      const run = await asNobody(["sessions", "list"]);
      expectNoUnexpected(run);
      expect(run.code).toBe(1);
      expectLogFaultsNamed(run.out);
      expect(run.out).toContain(`${fault.fifo} is a FIFO (named pipe), not a regular file; it is not read.`);
      expect(run.out).toContain(`${fault.loop} is a symbolic link loop; it is not read.`);
      expect(run.out).toMatch(/\n\d+ files or folders could not be read; what they hold is left out\.\n?$/);
      const json = await asNobody(["sessions", "list", "--json"]);
      expectNoUnexpected(json);
      expect(json.code).toBe(1);
      const doc = JSON.parse(json.out) as {
        ok: boolean;
        chats: { id: string; problems: string[] }[];
        problems: string[];
        leftOut: number;
      };
      expect(doc.ok).toBe(true);
      // The readable chats are there, with their details.
      expect(doc.chats.filter((c) => c.problems.length === 0).length).toBeGreaterThan(10);
      const all = [...doc.chats.flatMap((c) => c.problems), ...doc.problems].join("\n");
      expectLogFaultsNamed(all);
      expect(all).toContain(`${fault.checkpoint} cannot be read`);
      expect(doc.leftOut).toBe(fault.lock ? 5 : 4);
    },
    RUN_MS * 2,
  );

  it(
    "doctor lists each fault, the memory file's too, and exits 1",
    async () => {
      const run = await asNobody(["doctor"]);
      expectNoUnexpected(run);
      expect(run.code).toBe(1);
      expectLogFaultsNamed(run.out);
      expect(run.out).toMatch(
        /The file cannot be read: the system answered "permission denied" \(EACCES\): Oda Admin runs as nobody/,
      );
      expect(run.out).toContain(fault.memory);
      const json = await asNobody(["doctor", "--json"]);
      expectNoUnexpected(json);
      expect(json.code).toBe(1);
      expectLogFaultsNamed(json.out.replace(/\\"/g, '"'));
    },
    RUN_MS * 2,
  );

  it(
    "index refresh and search index the rest, name what they left out and exit 1, also when nothing changed since",
    async () => {
      const first = await asNobody(["index", "refresh"]);
      expectNoUnexpected(first);
      expect(first.code).toBe(1);
      expect(first.out).toMatch(/^Index refreshed: \d+ chats, \d+ added/);
      expectLogFaultsNamed(first.out);
      const search = await asNobody(["search", "the", "--json"]);
      expectNoUnexpected(search);
      expect(search.code).toBe(1);
      const doc = JSON.parse(search.out) as { ok: boolean; groups: unknown[]; leftOut: number };
      expect(doc.ok).toBe(true);
      expect(doc.groups.length).toBeGreaterThan(0);
      expect(doc.leftOut).toBeGreaterThanOrEqual(4);
      // Nothing changed: the chats left out are still counted though none is read again.
      const again = await asNobody(["index", "refresh"]);
      expect(again.code).toBe(1);
      expect(again.out).toMatch(/, 0 added, 0 changed/);
      expectLogFaultsNamed(again.out);
    },
    RUN_MS * 3,
  );

  it(
    "usage and storage give the figures of the rest and say what was left out",
    async () => {
      for (const args of [["usage", "daily"], ["storage"], ["usage", "folders", "--json"]]) {
        const run = await asNobody(args);
        expectNoUnexpected(run);
        expect(run.code, args.join(" ")).toBe(1);
        if (args.includes("--json")) expect((JSON.parse(run.out) as { leftOut: number }).leftOut).toBeGreaterThan(0);
        else expect(run.out).toMatch(/files or folders could not be read; what they hold is left out\./);
      }
    },
    RUN_MS * 3,
  );

  it(
    "repair list and memory list answer with the rest, name what they left out and count it (exit 1, --json too)",
    async () => {
      const repairs = await asNobody(["repair", "list"]);
      expectNoUnexpected(repairs);
      expect(repairs.code).toBe(1);
      for (const p of [fault.chatFolder, fault.group, fault.memory]) expect(repairs.out).toContain(`! ${p}`);
      expect(repairs.out).toMatch(/\n3 files or folders could not be read; what they hold is left out\.\n?$/);
      const repairsJson = await asNobody(["repair", "list", "--json"]);
      expect(repairsJson.code).toBe(1);
      const repairsDoc = JSON.parse(repairsJson.out) as { ok: boolean; leftOut: number; unreadable: string[] };
      expect(repairsDoc.ok).toBe(true);
      expect(repairsDoc.leftOut).toBe(3);
      expect(repairsDoc.unreadable.join("\n")).toContain(`${fault.chatFolder} cannot be read`);

      const workspace = fault.memory.split("/").at(-2) as string;
      const memory = await asNobody(["memory", "list", "--workspace", workspace]);
      expectNoUnexpected(memory);
      expect(memory.code).toBe(1);
      expect(memory.out).toMatch(/The file cannot be read: the system answered "permission denied" \(EACCES\)/);
      expect(memory.out).toMatch(/\n1 file or folder could not be read; what it holds is left out\.\n?$/);
      const memoryJson = await asNobody(["memory", "list", "--workspace", workspace, "--json"]);
      expect(memoryJson.code).toBe(1);
      const memoryDoc = JSON.parse(memoryJson.out) as { ok: boolean; leftOut: number; problems: unknown[] };
      expect(memoryDoc.leftOut).toBe(1);
    },
    RUN_MS * 4,
  );

  it(
    "bundle create makes the bundle without what it could not read, lists it in the manifest, and exits 1",
    async () => {
      const target = join(state, "support.tar.gz");
      const run = await asNobody([
        "bundle",
        "create",
        "--all-chats",
        "--memory",
        "-o",
        target,
        "--no-redact",
        "--json",
      ]);
      expectNoUnexpected(run);
      expect(run.code).toBe(1);
      expect(existsSync(target)).toBe(true);
      const doc = JSON.parse(run.out) as {
        manifest: { leftOut: { path: string; reason: string; message: string }[]; counts: { leftOut: number } };
      };
      const left = doc.manifest.leftOut;
      expect(left.every((l) => l.reason === "unreadable")).toBe(true);
      const messages = left.map((l) => l.message).join("\n");
      for (const p of [fault.log, fault.chatFolder, fault.group, fault.memory, fault.checkpoint])
        expect(messages).toContain(`${p} cannot be read`);
      expect(doc.manifest.counts.leftOut).toBe(left.length);
      const verify = await asNobody(["bundle", "verify", target]);
      expect(verify.code).toBe(0);
    },
    RUN_MS * 2,
  );

  it(
    "one such chat's own command explains instead of failing: session show names the file",
    async () => {
      const chat = fault.chatFolder.split("/").at(-1) as string;
      const run = await asNobody(["session", "show", chat, "--json"]);
      expectNoUnexpected(run);
      expect(run.code).toBe(1);
      const doc = JSON.parse(run.out) as { ok: boolean; error: { code: string; message: string } };
      expect(doc.error.message).toMatch(PERMISSION);
      expect(doc.error.message.startsWith(fault.chatFolder)).toBe(true);
    },
    RUN_MS,
  );
});

describe("folders vanishing mid-run", () => {
  it("the chat list names a chat folder removed between two batches and lists the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oda-vanish-list-"));
    try {
      const demo = await makeDemo({ out: join(dir, "demo"), seed: 3, chats: 12 });
      const before = await listAllChats(demo.logs);
      const last = before.chats.at(-1) as { folder: string };
      const gone = join(demo.logs, last.folder);
      const chats: { folder: string; problems: { message: string }[] }[] = [];
      const { listChats } = await import("../lib/chats");
      for await (const batch of listChats(demo.logs, { batchSize: 1 })) {
        if (!chats.length) rmSync(gone, { recursive: true, force: true });
        chats.push(...batch.chats);
      }
      expect(chats.length).toBe(before.chats.length);
      const vanished = chats.find((c) => c.folder === last.folder);
      expect(vanished?.problems.map((p) => p.message)).toEqual([
        expect.stringMatching(/disappeared while it was being read .*ENOENT.*run the command again/),
      ]);
      expect(vanished?.problems[0]?.message.startsWith(gone)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("bundle create leaves out chat folders removed while it collects, lists them as gone, and makes the bundle", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oda-vanish-bundle-"));
    try {
      const demo = await makeDemo({ out: join(dir, "demo"), seed: 5, chats: 16 });
      const listed = await listAllChats(demo.logs);
      // The last chats' folders go once the bundle has begun reading the chosen files.
      const doomed = listed.chats.slice(-3).map((c) => join(demo.logs, c.folder));
      let removed = false;
      const target = join(dir, "b.tar.gz");
      const made = await createBundle(
        { home: demo.home, logs: demo.logs },
        { chats: "all", since: null, memory: true, kinds: [], keywords: [], dropText: false },
        target,
        {
          version: "test",
          onProgress: (p) => {
            if (removed || p.phase !== "reading" || p.done === 0) return;
            removed = true;
            for (const d of doomed) rmSync(d, { recursive: true, force: true });
          },
        },
      );
      expect(removed).toBe(true);
      expect(existsSync(made.file)).toBe(true);
      const gone = (made.manifest.leftOut ?? []).filter((l) => l.reason === "gone");
      expect(gone.length).toBeGreaterThan(0);
      for (const l of gone)
        expect(l.message).toMatch(/ was removed while the bundle was collected; it is left out of the bundle\.$/);
      const names = gone.map((l) => l.path).join("\n");
      for (const d of doomed) expect(names).toContain(d.split("/").at(-1) as string);
      expect(made.manifest.counts.leftOut).toBe(made.manifest.leftOut?.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  // Beside the logs a log is held by a hard link; on another file system (/dev/shm, a tmpfs) it is copied
  // into the spool (EXDEV), the way it is for a user the system refuses a link to (fs.protected_hardlinks).
  it.each([
    ["held by a link", null],
    ["copied into the spool", existsSync("/dev/shm") ? "/dev/shm" : null],
  ])(
    "bundle create: logs that go in unchanged (no redaction) and vanish after staging still go in whole (%s)",
    async (_how, targetRoot) => {
      const dir = mkdtempSync(join(tmpdir(), "oda-vanish-staged-"));
      const targetDir = targetRoot ? mkdtempSync(join(targetRoot, "oda-vanish-staged-")) : dir;
      try {
        const demo = await makeDemo({ out: join(dir, "demo"), seed: 7, chats: 16 });
        const listed = await listAllChats(demo.logs);
        const folders = listed.chats.map((c) => join(demo.logs, c.folder));
        let removed = false;
        const target = join(targetDir, "b.tar.gz");
        // Every chat folder goes once the archive has begun: each log was staged, none is in the archive yet
        // but the first. On the old code the archive opened each log by its path again and stopped with ENOENT.
        const made = await createBundle(
          { home: demo.home, logs: demo.logs },
          { chats: "all", since: null, memory: true, kinds: [], keywords: [], dropText: false },
          target,
          {
            version: "test",
            onProgress: (p) => {
              if (removed || p.phase !== "writing") return;
              removed = true;
              for (const d of folders) rmSync(d, { recursive: true, force: true });
            },
          },
        );
        expect(removed).toBe(true);
        expect(folders.some((d) => existsSync(d))).toBe(false);
        expect(made.manifest.leftOut ?? []).toEqual([]);
        expect(made.manifest.counts.redactedFiles).toBe(0);
        // Every file is in the archive with the size and SHA-256 the manifest gives.
        const checked = await readBundle(made.file, join(dir, "unpacked"));
        const logs = checked.files.filter((f) => /session\.v4\.jsonl(\.zstd)?$/.test(f.path));
        // ...and both copies of the chat stored in two places (no chat of the listing, but in the bundle).
        const copies = new Set(listed.problems.filter((p) => p.kind === "duplicate").flatMap((p) => p.paths)).size;
        expect(copies).toBe(2);
        expect(logs.length).toBe(listed.chats.length + copies);
      } finally {
        rmSync(dir, { recursive: true, force: true });
        rmSync(targetDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
