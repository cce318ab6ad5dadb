import type { Command } from "../context";
import { memoryDoctorCheck } from "./memory";
import { sessionsDoctorCheck } from "./sessions";

/**
 * `oda-admin doctor`: every problem under the roots. Each domain contributes a
 * checker; the command exits 1 when any reports a problem.
 */
export interface DoctorSection {
  name: string;
  /** `path` is relative to the root it lies in; `line` when a parser named one. */
  problems: { path: string; message: string; line?: number }[];
}

export type DoctorCheck = (ctx: Parameters<Command>[0]) => Promise<DoctorSection | null>;

/** Filled by the memory and session domains. */
export const doctorChecks: DoctorCheck[] = [memoryDoctorCheck, sessionsDoctorCheck];

const run: Command = async (ctx) => {
  const sections = (await Promise.all(doctorChecks.map((check) => check(ctx)))).filter(
    (s): s is DoctorSection => s !== null,
  );
  const count = sections.reduce((n, s) => n + s.problems.length, 0);
  if (ctx.json) {
    ctx.out(JSON.stringify({ ok: count === 0, sections }, null, 2));
  } else if (count === 0) {
    ctx.out("No problems found.");
  } else {
    for (const s of sections) {
      if (!s.problems.length) continue;
      ctx.out(`${s.name}:`);
      for (const p of s.problems) ctx.out(`  ${p.path}: ${p.message}`);
    }
  }
  return count === 0 ? 0 : 1;
};

/** `cli/registry.ts` holds its summary. */
export const doctorRuns = { doctor: run } satisfies Record<string, Command>;
