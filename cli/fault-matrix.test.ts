import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer } from "../e2e/server";
import { createBundle } from "../lib/bundle";
import { listAllChats } from "../lib/sessions";
import { makeFifo } from "../lib/sessions/hostile-folder";
import { makeDemo } from "../scripts/demo";

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
 * skipped with that reason, and the vanishing cases still run.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "oda-admin");
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;
// A busy machine starts tsx slowly; this bounds a hang, not speed.
const RUN_MS = 120_000;

interface Run {
  code: number | null;
  out: string;
  err: string;
}

let base: string;
let home: string;
let logs: string;
let state: string;
/** Each fault's path, by name ("" for a lock when the demo has none). */
const fault = { log: "", checkpoint: "", chatFolder: "", fifo: "", loop: "", lock: "", group: "", memory: "" };

function asNobody(args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(
      "setpriv",
      [
        `--reuid=${NOBODY}`,
        `--regid=${NOBODY}`,
        "--clear-groups",
        process.execPath,
        BIN,
        ...args,
        "--home",
        home,
        "--logs",
        logs,
        "--state",
        state,
      ],
      {
        env: { ...process.env, HOME: state, ODA_HOME: "", ODA_LOG_DIR: "", ODA_ADMIN_STATE: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c;
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`oda-admin ${args.join(" ")} did not answer:\n${out}\n${err}`));
    }, RUN_MS);
    child.on("error", fail);
    child.on("close", (code) => {
      clearTimeout(timer);
      done({ code, out, err });
    });
  });
}

/** The chat folders of a group, sorted, without the demo's special chats. */
function plainChats(group: string): string[] {
  return readdirSync(join(logs, group))
    .filter((n) => !n.startsWith("c-demo-"))
    .sort();
}

const PERMISSION =
  /cannot be read: the system answered "permission denied" \(EACCES\): Oda Admin runs as nobody \(uid 65534\) and .* is owned by root \(uid 0\) with mode 0000\./;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), "oda-fault-matrix-"));
  chmodSync(base, 0o755); // the unprivileged user must reach what is inside
  const demo = await makeDemo({ out: join(base, "demo"), seed: 7, chats: 30 });
  home = demo.home;
  logs = demo.logs;
  state = join(base, "state");
  mkdirSync(state);
  if (isRoot) chownSync(state, NOBODY, NOBODY);
  const groups = readdirSync(logs).sort();
  const noCwd = "_no-cwd";
  const withCwd = groups.filter((g) => g !== noCwd && plainChats(g).length >= 2);
  const [g1, g2] = withCwd as [string, string];
  const [a, b] = plainChats(noCwd) as [string, string];
  const [c, d] = plainChats(g1) as [string, string];
  const locked = readdirSync(join(logs, g2)).find((n) => existsSync(join(logs, g2, n, "session.lock")));
  fault.log = join(logs, noCwd, a, "session.v4.jsonl.zstd");
  fault.checkpoint = join(logs, noCwd, b, "session.cache.json");
  fault.chatFolder = join(logs, g1, c);
  fault.fifo = join(logs, g1, d, "session.v5.jsonl.zstd");
  fault.loop = join(logs, noCwd, (plainChats(noCwd)[2] as string) ?? a, "session.v6.jsonl.zstd");
  fault.lock = locked ? join(logs, g2, locked, "session.lock") : "";
  // The group last: the others are inside groups that stay readable.
  const g3 = groups.find((g) => g !== noCwd && g !== g1 && g !== g2) as string;
  fault.group = join(logs, g3);
  const reports = join(home, "memory", "workspaces");
  const set = readdirSync(reports).sort()[0] as string;
  fault.memory = join(reports, set, readdirSync(join(reports, set)).sort()[0] as string);
  writeFileSync(fault.checkpoint, '{"cacheFormat": 1}');
  for (const p of [fault.log, fault.checkpoint, fault.chatFolder, fault.memory, fault.group, fault.lock])
    if (p) chmodSync(p, 0o000);
  makeFifo(fault.fifo);
  symlinkSync(fault.loop, fault.loop);
}, 120_000);

afterAll(() => {
  for (const p of [fault.chatFolder, fault.group]) if (p && existsSync(p)) chmodSync(p, 0o755);
  rmSync(base, { recursive: true, force: true });
});

/** What every command's output must not be. */
function expectNoUnexpected(run: Run): void {
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
    "repair list and memory list answer with the rest (the memory file named)",
    async () => {
      const repairs = await asNobody(["repair", "list"]);
      expectNoUnexpected(repairs);
      expect(repairs.code).not.toBeNull();
      const memory = await asNobody(["memory", "list", "--workspace", fault.memory.split("/").at(-2) as string]);
      expectNoUnexpected(memory);
      expect(memory.out).toMatch(/The file cannot be read: the system answered "permission denied" \(EACCES\)/);
    },
    RUN_MS * 2,
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

const hasBuild = existsSync(join(ROOT, process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"));

describe.skipIf(!isRoot || !hasBuild)(
  "the fault matrix in the server, run as an unprivileged user (needs root and `next build`)",
  () => {
    it("the chat list, a faulty chat's page, the Doctor page and the index job name each fault, never 500", async () => {
      const serverState = join(base, "server-state");
      mkdirSync(serverState);
      chownSync(serverState, NOBODY, NOBODY);
      const server = await startServer(
        { home, logs, state: serverState },
        { HOME: serverState },
        { uid: NOBODY, gid: NOBODY },
      );
      const get = async (path: string) => {
        const res = await fetch(`${server.baseURL}${path}`, { headers: { authorization: `Bearer ${server.token}` } });
        return { status: res.status, body: await res.text() };
      };
      try {
        const list = await get("/api/chats");
        expect(list.status).toBe(200);
        const batches = list.body
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { error?: unknown });
        expect(batches.filter((b) => b.error)).toEqual([]);
        for (const p of [fault.log, fault.chatFolder, fault.group]) expect(list.body).toContain(`${p} cannot be read`);
        for (const [path, named] of [
          [`/chats/${encodeURIComponent(fault.chatFolder.split("/").at(-1) as string)}`, fault.chatFolder],
          [`/chats/${encodeURIComponent(fault.log.split("/").at(-2) as string)}`, fault.log],
        ] as const) {
          const page = await get(path);
          expect(page.status, path).toBe(200);
          expect(page.body).toContain(`${named} cannot be read`);
        }
        const doctor = await get("/support/doctor");
        expect(doctor.status).toBe(200);
        for (const p of [fault.log, fault.chatFolder, fault.group])
          expect(doctor.body).toContain(`${p} cannot be read`);
        // The index job (started by the search page's status read) finishes with the rest indexed.
        type Status = {
          data: {
            chats: number;
            job: { running: boolean; error?: string | null; result: { unreadable: string[] } | null };
          };
        };
        let status = JSON.parse((await get("/api/read/search.status")).body) as Status;
        for (let i = 0; i < 600 && (status.data.job.running || !status.data.job.result); i++) {
          await new Promise((next) => setTimeout(next, 100));
          status = JSON.parse((await get("/api/read/search.status")).body) as Status;
        }
        expect(status.data.job.error ?? null).toBeNull();
        expect(status.data.chats).toBeGreaterThan(10);
        expect(status.data.job.result?.unreadable.join("\n")).toContain(`${fault.log} cannot be read`);
      } finally {
        await server.stop();
      }
    }, 240_000);
  },
);

describe("folders vanishing mid-run", () => {
  it("the chat list names a chat folder removed between two batches and lists the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "oda-vanish-list-"));
    try {
      const demo = await makeDemo({ out: join(dir, "demo"), seed: 3, chats: 12 });
      const before = await listAllChats(demo.logs);
      const last = before.chats.at(-1) as { folder: string };
      const gone = join(demo.logs, last.folder);
      const chats: { folder: string; problems: { message: string }[] }[] = [];
      const { listChats } = await import("../lib/sessions");
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
});
