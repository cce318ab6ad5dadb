import "server-only";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type DoctorReport, memoryDoctor, PAGE_READ } from "@/lib/doctor";
import { memoryRepairableReport, type Repairable, type RepairRoots } from "@/lib/repair";
import { repairRoots } from "@/server/jobs/repairs";
import type { SourceContext } from "@/server/source/context";
import { type DoctorItem, doctorView } from "@/server/views/doctor-view";
import { pullInWorker } from "@/server/workers/log-worker";

/**
 * One step of the Doctor page's report as it streams: problems found since the
 * last step in one section ("memory" or "chat logs"), and how far that section
 * has been read. The last step of a section has `finished`.
 */
export interface DoctorStep {
  section: "memory" | "chat logs";
  items: DoctorItem[];
  /** Memory files or chats read through so far, of `total` (`null` while not known). */
  done: number;
  total: number | null;
  finished: boolean;
}

/** Where repairs are made, or null when none is offered here (a bundle is read-only; no admin state). */
function repairsHere(ctx: SourceContext): RepairRoots | null {
  if (!ctx.canWrite) return null;
  try {
    return repairRoots(ctx);
  } catch {
    return null;
  }
}

/** A step's problems as the page shows them, with the repair links of what is offered for them. */
const itemsOf = (
  name: DoctorStep["section"],
  problems: DoctorReport["sections"][number]["problems"],
  offered: Repairable[] | null,
) => (problems.length ? (doctorView({ ok: false, sections: [{ name, problems }] }, offered)[0]?.items ?? []) : []);

/**
 * The doctor report for the Doctor page, as it is found: the memory section
 * first (small), then the chat logs a batch of chats at a time with the count
 * read so far, read on a thread of its own (the decode worker's `doctor` lane). The reading begins while the
 * log folder is still walked (`PAGE_READ`): the total is `null` until the walk ends. Each step's repair links are
 * looked up for that step's chats only, beside the reading: never a listing of every chat's repairs.
 * A bundle's own `doctor.json` comes in one step per section.
 * Ending the loop (the page went away) stops reading the logs.
 */
export async function* streamDoctorReport(ctx: SourceContext): AsyncGenerator<DoctorStep> {
  if (ctx.bundle) {
    const report = JSON.parse(readFileSync(join(ctx.bundle.dir, "bundle", "doctor.json"), "utf8")) as DoctorReport;
    for (const s of report.sections) {
      const section = s.name === "memory" ? "memory" : "chat logs";
      yield { section, items: itemsOf(section, s.problems, null), done: 0, total: null, finished: true };
    }
    return;
  }
  const repairs = repairsHere(ctx);
  const { home, logs } = ctx.roots;
  if (home) {
    const memory = await memoryDoctor(home);
    const offered =
      repairs && memory.problems.length ? (await memoryRepairableReport(home).catch(() => null))?.repairable : null;
    yield {
      section: "memory",
      items: itemsOf("memory", memory.problems, offered ?? null),
      done: 0,
      total: null,
      finished: true,
    };
  }
  if (!logs) return;
  let last: { done: number; total: number | null } = { done: 0, total: 0 };
  // On the doctor's thread, a step at a time as this stream is read: leaving the page cancels the reading there.
  const steps = pullInWorker("doctorLogs", logs, home, PAGE_READ, repairs);
  try {
    for (let r = await steps.next(); !r.done; r = await steps.next()) {
      const step = r.value;
      last = step;
      yield {
        section: "chat logs",
        items: itemsOf("chat logs", step.problems, step.repairable),
        done: step.done,
        total: step.total,
        finished: false,
      };
    }
  } finally {
    steps.cancel();
  }
  yield { section: "chat logs", items: [], done: last.done, total: last.total, finished: true };
}
