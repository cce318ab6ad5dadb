import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { logFolderOf } from "../chats/settings";
import { isOdaError, OdaError } from "../errors";
import { writeFileAtomic } from "../fs/atomic";
import { judgeHolder, parseLockContent } from "../fs/lock";
import { repairsFolder } from "./journal";
import { thisHolder } from "./locks";
import { listRepairable } from "./problems";
import { applyRepair, type RepairRoots } from "./targets";

/**
 * Changing the folder's form: every chat with a log of the other form is
 * converted, one repair (and journal) per chat, under a job journal
 * (`<state>/repairs/jobs/<id>.json`) that records which chats are done,
 * skipped (a live writer holds them) or failed. A stopped job is continued by
 * the next `apply --all` or `repair resume`; each chat's own journal settles a
 * chat the stop cut in half.
 */

/** The job journal. */
export interface FormJob {
  id: string;
  createdAt: string;
  /** The form the chats are converted to. */
  compress: boolean;
  holder: string;
  phase: "running" | "done";
  todo: string[];
  done: { chat: string; repair: string }[];
  skipped: { chat: string; reason: string }[];
  failed: { chat: string; reason: string }[];
  finishedAt?: string;
}

function jobsFolder(state: string): string {
  return join(repairsFolder(state), "jobs");
}

async function writeJob(state: string, job: FormJob): Promise<void> {
  mkdirSync(jobsFolder(state), { recursive: true });
  await writeFileAtomic(join(jobsFolder(state), `${job.id}.json`), `${JSON.stringify(job, null, 2)}\n`);
}

/** Every job, newest first. */
export function listJobs(state: string): FormJob[] {
  const dir = jobsFolder(state);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^[0-9]{8}T[0-9]{9}Z-form-all\.json$/.test(n))
    .sort()
    .reverse()
    .map((n) => {
      try {
        return JSON.parse(readFileSync(join(dir, n), "utf8")) as FormJob;
      } catch {
        return null;
      }
    })
    .filter((j): j is FormJob => j !== null);
}

function running(job: FormJob): boolean {
  const holder = parseLockContent(job.holder);
  return holder !== null && judgeHolder(holder).state !== "stale";
}

/** The unfinished job a stop left, if any (one whose process still runs is refused). */
export function unfinishedJob(state: string): FormJob | null {
  const job = listJobs(state).find((j) => j.phase === "running") ?? null;
  if (job && running(job) && job.holder !== thisHolder().content)
    throw new OdaError(
      "locked",
      "Another Oda Admin process is converting the log folder's chats; wait for it to finish.",
    );
  return job;
}

/**
 * Runs (or continues) the conversion of every chat of the wrong form, reporting
 * after each chat. Chats a live writer holds are skipped and listed.
 */
export async function runFormJob(
  roots: RepairRoots,
  options: { onProgress?: (job: FormJob) => void; continueOnly?: boolean } = {},
): Promise<FormJob | null> {
  const compress = logFolderOf(roots).compress;
  let job = unfinishedJob(roots.state);
  if (!job) {
    if (options.continueOnly) return null;
    const todo = (await listRepairable({ ...roots, home: roots.home })).filter((r) => r.kind === "form");
    const now = new Date();
    job = {
      id: `${now.toISOString().replace(/[-:.]/g, "")}-form-all`,
      createdAt: now.toISOString(),
      compress,
      holder: "",
      phase: "running",
      todo: todo.map((r) => r.subject),
      done: [],
      skipped: [],
      failed: [],
    };
  }
  job.holder = thisHolder().content;
  await writeJob(roots.state, job);
  options.onProgress?.(job);
  const settled = (chat: string, j: FormJob) =>
    j.done.some((d) => d.chat === chat) ||
    j.skipped.some((d) => d.chat === chat) ||
    j.failed.some((d) => d.chat === chat);
  for (const chat of job.todo) {
    if (settled(chat, job)) continue;
    try {
      const journal = await applyRepair(roots, { kind: "form", chat });
      job.done.push({ chat, repair: journal.id });
    } catch (error) {
      const reason = isOdaError(error) ? error.message : String(error);
      if (isOdaError(error) && (error.code === "locked" || error.code === "not_found"))
        job.skipped.push({ chat, reason });
      // converted by a repair the stop interrupted, settled since by resume
      else if (isOdaError(error) && /no log of the wrong form/.test(reason)) job.done.push({ chat, repair: "" });
      else job.failed.push({ chat, reason });
    }
    await writeJob(roots.state, job);
    options.onProgress?.(job);
  }
  job.phase = "done";
  job.finishedAt = new Date().toISOString();
  await writeJob(roots.state, job);
  options.onProgress?.(job);
  return job;
}
