import { runDoctor } from "../../lib/doctor";
import { OdaError } from "../../lib/errors";
import type { Command } from "../context";

/**
 * `oda-admin doctor`: every problem under the roots (`lib/doctor.ts`, as the
 * dashboard's Doctor page and a bundle's report find them); the logs are read
 * on list threads where the folder is worth it. Exits 1 when there is any.
 * With neither an Oda home nor a log folder there is nothing to check: a
 * refusal, never "No problems found." (a cron check on it would never alert).
 * With `--bundle` it is the bundle's own report (`doctor.json`), as the
 * bundle's computer found it, as the dashboard's Doctor page shows it: read
 * again here, the copy would differ (redaction re-compresses logs, so byte
 * offsets move; a lock there belongs to another computer and is never judged
 * stale; messages name the bundle's paths), and what was left out is unseen.
 */
const run: Command = async (ctx) => {
  if (!ctx.bundle && !ctx.roots.home && !ctx.roots.logs)
    throw new OdaError(
      "bad_input",
      "Nothing to check: give the Oda home with --home DIR or ODA_HOME, the log folder with --logs DIR or ODA_LOG_DIR, or both.",
    );
  const report = ctx.bundle
    ? (await import("../../lib/bundle/unpack")).readBundleReport(ctx.bundle.dir)
    : await runDoctor(ctx.roots, { threads: ctx.listThreads ?? true });
  const count = report.sections.reduce((n, s) => n + s.problems.length, 0);
  if (ctx.json) {
    ctx.out(JSON.stringify(report, null, 2));
    return count === 0 ? 0 : 1;
  }
  if (ctx.bundle)
    ctx.out(`The support bundle ${ctx.bundle.name}, as its computer found it on ${ctx.bundle.createdAt}:`);
  if (count === 0) {
    ctx.out("No problems found.");
  } else {
    for (const s of report.sections) {
      if (!s.problems.length) continue;
      ctx.out(`${s.name}:`);
      for (const p of s.problems) ctx.out(`  ${p.path}: ${p.message}`);
    }
  }
  return count === 0 ? 0 : 1;
};

/** `cli/registry.ts` holds its summary. */
export const doctorRuns = { doctor: run } satisfies Record<string, Command>;
