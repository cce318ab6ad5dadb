/**
 * Crash safety: SIGKILLs a process in the middle of saves at random moments,
 * then checks that no memory file is torn, empty or lost, that no completed
 * save's text is lost (it is the current text or a version), that the
 * current state is labelled by its real source (only the app wrote, so never
 * `external` or `found`), and at the end that the next change leaves no
 * temporary file in the history folders.
 * Used by `crash.test.ts` and `bench/memory-crash.ts`.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  changeMemory,
  createMemory,
  createWorkspaceSet,
  findMemory,
  listDeleted,
  listSet,
  listVersions,
  setEnabled,
  writeSettings,
} from "../../lib/memory/index";
import { bundleChild as bundle } from "../../scripts/node-shim/bundle-child";

/** What a run found: empty `failures` means every check held. */
export interface CrashReport {
  kills: number;
  savesCompleted: number;
  failures: string[];
}

function bundleChild(outDir: string, name = "crash-child"): Promise<string> {
  return bundle({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), `${name}.ts`)],
    outfile: join(outDir, `${name}.mjs`),
    // bundled CommonJS dependencies (yaml) still call require()
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

/**
 * Runs one child and kills it `killAfterMs` after it is ready, or after its first completed save
 * when `afterFirstSave` is set: those rounds complete at least one save however loaded the machine
 * is, so kills land after saves as well as before and inside them.
 */
function runChild(
  child: string,
  home: string,
  tag: string,
  ids: string[],
  killAfterMs: number,
  afterFirstSave: boolean,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, home, tag], {
      env: { ...process.env, CRASH_IDS: ids.join(",") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let timer: NodeJS.Timeout | undefined;
    p.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const started = afterFirstSave ? /^ok /m.test(out) : out.startsWith("ready\n");
      if (!timer && started) timer = setTimeout(() => p.kill("SIGKILL"), killAfterMs);
    });
    p.stderr.on("data", (d: Buffer) => {
      err += d.toString();
    });
    p.on("error", reject);
    p.on("exit", (_code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal !== "SIGKILL") reject(new Error(`the child stopped by itself: ${err.slice(0, 500)}`));
      else resolve(out);
    });
  });
}

/** Runs `kills` kill-and-check rounds against one home. */
export async function runCrashHarness(options: {
  kills: number;
  maxKillAfterMs?: number;
  seed?: number;
}): Promise<CrashReport> {
  const base = await mkdtemp(join(tmpdir(), "oda-crash-"));
  const home = join(base, "home");
  const report: CrashReport = { kills: 0, savesCompleted: 0, failures: [] };
  let seed = options.seed ?? 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  try {
    const child = await bundleChild(base);
    // Interrupted saves and toggles keep versions too, so keep the most the
    // contract allows: the checks below then never see a completed save age out.
    await writeSettings(home, { versionsKept: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await createMemory(home, null, { title: `M${i}`, text: "start" })).memory!.id);
    const completed = new Map<string, string[]>(ids.map((id) => [id, ["start"]]));
    for (let k = 0; k < options.kills && report.failures.length < 5; k++) {
      const killAfterMs = Math.floor(random() * (options.maxKillAfterMs ?? 30));
      const out = await runChild(child, home, `k${k}`, ids, killAfterMs, k % 2 === 1);
      report.kills++;
      for (const line of out.split("\n")) {
        const m = /^ok (\S+) (.+)$/.exec(line);
        if (!m) continue;
        completed.get(m[1] as string)?.push(m[2] as string);
        report.savesCompleted++;
      }
      const set = await listSet(home, null);
      for (const p of set.problems) report.failures.push(`after kill ${k}: ${p.path}: ${p.message}`);
      for (const id of ids) {
        const live = set.memories.find((m) => m.id === id);
        if (!live) {
          report.failures.push(`after kill ${k}: memory ${id} is lost`);
          continue;
        }
        const state = (await findMemory(home, null, id))?.state;
        if (state?.source === "external" || state?.source === "found")
          report.failures.push(
            `after kill ${k}: memory ${id} is labelled "${state.source}", yet only the app wrote it`,
          );
        const versions = await listVersions(home, null, id);
        for (const v of versions)
          if (!v.ok) report.failures.push(`after kill ${k}: version ${id}/${v.name}: ${v.problem}`);
        const known = new Set([live.text, ...versions.map((v) => v.text)]);
        // the last five completed saves must all be recoverable (versionsKept is 100)
        for (const text of (completed.get(id) ?? []).slice(-5)) {
          if (!known.has(text)) report.failures.push(`after kill ${k}: the completed save "${text}" of ${id} is lost`);
        }
      }
    }
    for (const id of ids) {
      await changeMemory(home, null, id, { text: "after the kills" });
      const temps = (await readdir(join(home, "memory-history", "global", id))).filter((n) => n.includes(".tmp-"));
      if (temps.length) report.failures.push(`history of ${id} keeps temporary files: ${temps.join(", ")}`);
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return report;
}

/** What a bulk run found: empty `failures` means every bulk change was whole after the next change. */
export interface BulkCrashReport extends CrashReport {
  /** Kills after which the memories were seen split (some changed, some not) before the next change finished the bulk. */
  splitSeen: number;
}

/**
 * SIGKILLs a process running bulk changes over six global memories (see
 * `bulk-crash-child.ts`) at random moments. After each kill, before anything
 * else, it notes whether the kill split a bulk change; then it makes one
 * ordinary change elsewhere in the home (which finishes a pending bulk
 * change first) and checks that the six memories are all in one state (all
 * on, all off, or all deleted), unbroken, with their text and no pending
 * journal.
 */
export async function runBulkCrashHarness(options: {
  kills: number;
  maxKillAfterMs?: number;
  seed?: number;
}): Promise<BulkCrashReport> {
  const base = await mkdtemp(join(tmpdir(), "oda-bulk-crash-"));
  const home = join(base, "home");
  const report: BulkCrashReport = { kills: 0, savesCompleted: 0, failures: [], splitSeen: 0 };
  let seed = options.seed ?? 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const states = async (ids: string[]) => {
    const set = await listSet(home, null);
    return ids.map((id) => {
      const m = set.memories.find((x) => x.id === id);
      return m ? (m.enabled ? "on" : "off") : set.problems.some((p) => p.id === id) ? "problem" : "deleted";
    });
  };
  try {
    const child = await bundleChild(base, "bulk-crash-child");
    await writeSettings(home, { versionsKept: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await createMemory(home, null, { title: `M${i}`, text: `text ${i}` })).memory!.id);
    await createWorkspaceSet(home, "elsewhere");
    const sentinel = (await createMemory(home, "elsewhere", { title: "Sentinel", text: "s" })).memory!.id;
    for (let k = 0; k < options.kills && report.failures.length < 5; k++) {
      const killAfterMs = Math.floor(random() * (options.maxKillAfterMs ?? 100));
      const out = await runChild(child, home, `k${k}`, ids, killAfterMs, k % 2 === 1);
      report.kills++;
      report.savesCompleted += out.split("\n").filter((l) => l.startsWith("ok ")).length;
      if (new Set(await states(ids)).size > 1) report.splitSeen++;
      await setEnabled(home, "elsewhere", sentinel, k % 2 === 0);
      const after = await states(ids);
      if (new Set(after).size > 1) report.failures.push(`after kill ${k}: the memories are split: ${after.join(" ")}`);
      if (after.includes("problem")) report.failures.push(`after kill ${k}: a memory file has a problem`);
      const deleted = await listDeleted(home, null);
      for (const [i, id] of ids.entries()) {
        const live = (await findMemory(home, null, id).catch(() => null)) ?? null;
        const text = live?.ok ? live.text : deleted.find((d) => d.id === id)?.text;
        if (text !== `text ${i}`) report.failures.push(`after kill ${k}: memory ${id} reads ${JSON.stringify(text)}`);
        for (const v of await listVersions(home, null, id))
          if (!v.ok) report.failures.push(`after kill ${k}: version ${id}/${v.name}: ${v.problem}`);
      }
      const pending = await readdir(join(home, "memory-history", ".bulk")).catch(() => [] as string[]);
      if (pending.includes("pending.json")) report.failures.push(`after kill ${k}: the bulk journal is still pending`);
    }
  } finally {
    await rm(base, { recursive: true, force: true });
  }
  return report;
}
