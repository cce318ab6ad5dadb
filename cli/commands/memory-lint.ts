import { OdaError } from "../../lib/errors";
import { type LintFinding, type LintMemory, type LintScope, lintMemory } from "../../lib/memory/lint";
import { requireRoot } from "../../lib/roots";
import { type Command, type CommandContext, emit, flagString } from "../context";

/** `--workspace KEY`, `--all`, or neither (the global set alone); both, or stray words, are a usage error. */
function scopeOf(ctx: CommandContext): LintScope {
  const ws = flagString(ctx, "workspace");
  if (ws !== undefined && ctx.flags.all === true) throw usage("Give --workspace KEY or --all, not both.");
  if (ctx.args.length) throw usage(`oda-admin memory lint takes no argument ${JSON.stringify(ctx.args[0])}.`);
  return ws !== undefined ? { workspace: ws } : ctx.flags.all === true ? { all: true } : { global: true };
}

function offDaysOf(ctx: CommandContext): number | undefined {
  const raw = flagString(ctx, "off-days");
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) throw usage("--off-days needs a whole number of days.");
  return n;
}

class UsageError extends OdaError {}
const usage = (message: string) => new UsageError("bad_input", message);

const where = (m: { workspace: string | null }) => (m.workspace === null ? "global" : `workspace ${m.workspace}`);
const name = (m: LintMemory) => `${m.id} (${where(m)}) "${m.title}"${m.enabled ? "" : " [off]"}`;

/** One finding as lines of text. */
function describe(f: LintFinding): string[] {
  switch (f.kind) {
    case "problem":
      return [`problem  ${f.path}${f.line !== undefined ? `:${f.line}` : ""}: ${f.message}`];
    case "conflict":
      return [`conflict  "${f.title}": the same title with different texts`, ...f.memories.map((m) => `  ${name(m)}`)];
    case "exact":
      return [
        `duplicate  the same text${f.sameChat ? ", sent twice to one chat" : " in several sets"}`,
        ...f.memories.map((m) => `  ${name(m)}`),
      ];
    case "near":
      return [
        `near duplicate${f.sameChat ? "" : " (in different workspaces)"}`,
        ...f.pairs.map((p) => {
          const a = f.memories[p.a] as LintMemory;
          const b = f.memories[p.b] as LintMemory;
          const words = p.diff.inline
            .flatMap((l) =>
              l.segments.filter((s) => s.changed).map((s) => `${l.kind === "added" ? "+" : "-"}${s.text}`),
            )
            .join(" ");
          return `  ${Math.round(p.score * 100)}%  ${name(a)} ~ ${name(b)}${words ? `: ${words}` : ""}`;
        }),
      ];
    case "off":
      return [`off  ${name(f.memory)} turned off for ${f.days} days (since ${f.since})`];
    case "limit":
      return [`limit  ${name(f.memory)}: ${f.limit} ${f.value} of ${f.max}`];
    case "budget":
      return [
        `budget  a chat in ${f.workspace === null ? "no workspace" : `workspace ${f.workspace}`} receives ~${f.tokens} of ${f.limit} tokens; the costliest:`,
        ...f.costliest.map((m) => `  ~${m.tokens} tokens  ${name(m)}`),
      ];
  }
}

/** `memory lint`: exit 0 when nothing is found, 1 with findings (or refused), 2 on a usage error. */
const lint: Command = async (ctx) => {
  let scope: LintScope;
  let offDays: number | undefined;
  try {
    scope = scopeOf(ctx);
    offDays = offDaysOf(ctx);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (ctx.json) ctx.out(JSON.stringify({ ok: false, error: { code: error.code, message: error.message } }, null, 2));
    else ctx.err(error.message);
    return 2;
  }
  const report = await lintMemory(requireRoot(ctx.roots, "home"), scope, { offDays });
  emit(ctx, { ok: true, ...report }, () => {
    if (!report.findings.length) return `No findings in ${report.memories} memories.`;
    const lines = report.findings.flatMap(describe);
    const counts = Object.entries(report.counts)
      .filter(([, n]) => n)
      .map(([k, n]) => `${n} ${k}`)
      .join(", ");
    return `${lines.join("\n")}\n\n${report.findings.length} findings in ${report.memories} memories: ${counts}.`;
  });
  return report.findings.length ? 1 : 0;
};

export const memoryLintRuns = { "memory lint": lint } satisfies Record<string, Command>;
