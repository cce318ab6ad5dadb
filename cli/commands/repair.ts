import { OdaError } from "../../lib/errors";
import {
  applyRepair,
  type Journal,
  listJournals,
  listRepairable,
  listRepairableReport,
  parseTarget,
  previewRepair,
  type RepairRoots,
  type RepairTarget,
  resumeRepairs,
  runFormJob,
  setAsideHomeLock,
  undoRepair,
} from "../../lib/repair";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, emit, flagString } from "../context";
import { reportLeftOut } from "../left-out";

/** The roots a repair needs: the admin state always, the home and log folder as the repair needs them. */
function rootsOf(ctx: CommandContext): RepairRoots {
  const { home, logs } = ctx.roots;
  return { home, logs, state: requireRoot(ctx.roots, "state") };
}

function journalLine(j: Journal): string {
  return `${j.id}  ${j.phase}${j.undoneBy ? " (undone)" : ""}  ${j.summary}`;
}

/** `oda-admin repair list [--json]`: every problem with a repair, and its id. */
const list: Command = async (ctx) => {
  const { repairable: items, leftOut } = await listRepairableReport(rootsOf(ctx));
  emit(ctx, { ok: true, repairs: items, leftOut: leftOut.length, unreadable: leftOut }, () =>
    items.length ? items.map((r) => `${r.id}\n  ${r.message}`).join("\n") : "No problem has a repair to apply.",
  );
  return reportLeftOut(ctx, leftOut);
};

function targetOf(ctx: CommandContext, text: string): RepairTarget {
  const target = parseTarget(text);
  if (target.kind === "duplicate") return { ...target, setAside: flagString(ctx, "set-aside") };
  if (target.kind === "archive") {
    const only = flagString(ctx, "generation");
    return only ? { ...target, generations: only.split(",") } : target;
  }
  return target;
}

/** `oda-admin repair apply <id> [--dry-run]` or `repair apply --all`: settles interrupted repairs first. */
const apply: Command = async (ctx) => {
  const roots = rootsOf(ctx);
  const dryRun = ctx.flags["dry-run"] === true;
  if (!dryRun) await resumeRepairs(roots.state);
  if (ctx.flags.all === true) {
    if (ctx.args.length)
      throw new OdaError("bad_input", `Give a repair id or --all, not both ("${ctx.args[0]}" and --all).`);
    if (dryRun) {
      const items = (await listRepairable(roots)).filter((r) => r.kind === "form");
      emit(ctx, { ok: true, convert: items.map((r) => r.subject) }, () =>
        items.length
          ? items.map((r) => `would convert ${r.subject}`).join("\n")
          : "Every chat is in the folder's form.",
      );
      return 0;
    }
    const job = await runFormJob(roots, {
      onProgress: (j) => {
        const n = j.done.length + j.skipped.length + j.failed.length;
        ctx.progress?.(`converting ${n}/${j.todo.length}`, n === j.todo.length);
      },
    });
    emit(ctx, { ok: true, job }, () =>
      [
        `Converted ${job?.done.length ?? 0} of ${job?.todo.length ?? 0} chats.`,
        ...(job?.skipped ?? []).map((s) => `skipped ${s.chat}: ${s.reason}`),
        ...(job?.failed ?? []).map((s) => `failed ${s.chat}: ${s.reason}`),
      ].join("\n"),
    );
    return job?.failed.length ? 1 : 0;
  }
  const text = ctx.args[0];
  if (!text)
    throw new OdaError("bad_input", "Name the repair: oda-admin repair apply <id> (see repair list), or --all.");
  const target = targetOf(ctx, text);
  if (target.kind === "lock") {
    const done = await setAsideHomeLock(requireRoot(ctx.roots, "home"), roots.state, dryRun);
    emit(ctx, { ok: true, lock: done }, () =>
      done.keptIn
        ? `Set aside ${done.path} (${done.what}); it is kept in ${done.keptIn}.`
        : `Would set aside ${done.path} (${done.what}) into the admin state.`,
    );
    return 0;
  }
  if (dryRun) {
    const preview = await previewRepair(roots, target);
    emit(ctx, { ok: true, preview }, () =>
      [preview.summary, ...preview.changes.map((c) => `  ${c.action}: ${c.path} (${c.bytes} bytes)`)].join("\n"),
    );
    return 0;
  }
  const journal = await applyRepair(roots, target);
  emit(
    ctx,
    { ok: true, repair: journal },
    () => `Done: ${journal.summary}\nUndo with: oda-admin repair undo ${journal.id}`,
  );
  return 0;
};

/** `oda-admin repair undo <repair id>`: puts back every byte the repair changed. */
const undo: Command = async (ctx) => {
  const roots = rootsOf(ctx);
  const id = ctx.args[0];
  if (!id)
    throw new OdaError("bad_input", "Name the repair to undo: oda-admin repair undo <repair id> (see repair done).");
  await resumeRepairs(roots.state);
  const journal = await undoRepair(roots.state, id);
  emit(ctx, { ok: true, repair: journal }, () => `Undone: ${journal.summary}`);
  return 0;
};

/** `oda-admin repair resume [--dry-run]`: finishes or rolls back interrupted repairs, then a stopped conversion. */
const resume: Command = async (ctx) => {
  const roots = rootsOf(ctx);
  const dryRun = ctx.flags["dry-run"] === true;
  const outcomes = await resumeRepairs(roots.state, { dryRun });
  const job = dryRun ? null : await runFormJob(roots, { continueOnly: true });
  emit(ctx, { ok: true, repairs: outcomes, job }, () =>
    outcomes.length || job
      ? [
          ...outcomes.map(
            (o) => `${dryRun ? "would be " : ""}${o.action}: ${o.id}${o.message ? ` (${o.message})` : ""}`,
          ),
          ...(job ? [`Conversion ${job.id}: ${job.done.length} of ${job.todo.length} chats converted.`] : []),
        ].join("\n")
      : "No repair was interrupted.",
  );
  return outcomes.some((o) => o.action === "failed") ? 1 : 0;
};

/** `oda-admin repair done [--json]`: the repairs made, newest first, with their ids for undo. */
const done: Command = async (ctx) => {
  const journals = listJournals(rootsOf(ctx).state);
  emit(ctx, { ok: true, repairs: journals }, () => journals.map(journalLine).join("\n") || "No repair was made.");
  return 0;
};

/** `cli/registry.ts` holds their summaries and options. */
export const repairRuns = {
  "repair list": list,
  "repair apply": apply,
  "repair undo": undo,
  "repair resume": resume,
  "repair done": done,
} satisfies Record<string, Command>;
