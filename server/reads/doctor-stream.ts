import "server-only";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BOUNDED_READ, type DoctorReport, memoryDoctor } from "@/lib/doctor";
import type { Repairable } from "@/lib/repair";
import { repairRoots } from "@/server/jobs/repairs";
import type { SourceContext } from "@/server/source/context";
import { type DoctorItem, doctorView } from "@/server/views/doctor-view";
import { inWorker, pullInWorker } from "@/server/workers/log-worker";

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

/**
 * What the Repairs page offers here, looked for on the decode worker (every chat folder's logs listed: on the
 * event loop it held the whole server, and the report's first step, for a minute at 100,000 chats); none in
 * a bundle (read-only) or without an admin state.
 */
function offeredRepairs(ctx: SourceContext): Promise<Repairable[] | null> {
  if (!ctx.canWrite) return Promise.resolve(null);
  let roots: ReturnType<typeof repairRoots>;
  try {
    roots = repairRoots(ctx);
  } catch {
    return Promise.resolve(null);
  }
  return inWorker("repairable", roots).catch(() => null);
}

/** A step's problems as the page shows them, with their repair links: only a step with problems waits for the offer. */
const itemsOf = async (
  name: DoctorStep["section"],
  problems: DoctorReport["sections"][number]["problems"],
  offered: Promise<Repairable[] | null>,
) =>
  problems.length ? (doctorView({ ok: false, sections: [{ name, problems }] }, await offered)[0]?.items ?? []) : [];

/**
 * The doctor report for the Doctor page, as it is found: the memory section
 * first (small), then the chat logs a batch of chats at a time with the count
 * read so far (read on the decode worker). A bundle's own `doctor.json` comes in one step per section.
 * Ending the loop (the page went away) stops reading the logs.
 */
export async function* streamDoctorReport(ctx: SourceContext): AsyncGenerator<DoctorStep> {
  if (ctx.bundle) {
    const report = JSON.parse(readFileSync(join(ctx.bundle.dir, "bundle", "doctor.json"), "utf8")) as DoctorReport;
    for (const s of report.sections) {
      const section = s.name === "memory" ? "memory" : "chat logs";
      yield {
        section,
        items: await itemsOf(section, s.problems, Promise.resolve(null)),
        done: 0,
        total: null,
        finished: true,
      };
    }
    return;
  }
  const repairable = offeredRepairs(ctx);
  const { home, logs } = ctx.roots;
  if (home) {
    const memory = await memoryDoctor(home);
    yield {
      section: "memory",
      items: await itemsOf("memory", memory.problems, repairable),
      done: 0,
      total: null,
      finished: true,
    };
  }
  if (!logs) return;
  let last = { done: 0, total: 0 };
  // On the decode worker, a step at a time as this stream is read: leaving the page cancels the reading there.
  const steps = pullInWorker("doctorLogs", logs, home, BOUNDED_READ);
  try {
    for (let r = await steps.next(); !r.done; r = await steps.next()) {
      const step = r.value;
      last = step;
      yield {
        section: "chat logs",
        items: await itemsOf("chat logs", step.problems, repairable),
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
