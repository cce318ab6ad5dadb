import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  type BundleProgress,
  type BundleScope,
  type CreatedBundle,
  createBundle,
  diffBundles,
  expansionProblem,
  formatBundleDiff,
  type Manifest,
  REDACT_KINDS,
  type RedactKind,
  readBundle,
  redactBundleAgain,
} from "../../lib/bundle";
import { bundleThreadFile, runBundleThread } from "../../lib/bundle/in-worker";
import { OdaError } from "../../lib/errors";
import { plural } from "../../lib/words";
import { ratioFlag as ratioOf } from "../bundle-roots";
import { type Command, type CommandContext, emit, flagString } from "../context";
import { reportLeftOut } from "../left-out";
import { readPackage } from "../package-root";

/** `--redact home,email`, every kind when absent, none with `--no-redact`. */
function kindsOf(ctx: CommandContext): RedactKind[] {
  if (ctx.flags["no-redact"] === true) {
    if (flagString(ctx, "redact") !== undefined)
      throw new OdaError("bad_input", "Give --no-redact or --redact KINDS, not both.");
    return [];
  }
  const given = flagString(ctx, "redact");
  if (given === undefined) return [...REDACT_KINDS];
  const kinds = given
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);
  for (const k of kinds) {
    if (!(REDACT_KINDS as readonly string[]).includes(k))
      throw new OdaError("bad_input", `"${k}" is not a redaction kind; the kinds are ${REDACT_KINDS.join(", ")}.`);
  }
  return kinds as RedactKind[];
}

/** The words of every `--keyword` (the option may be given again and again). */
function keywordsOf(ctx: CommandContext): string[] {
  const value = ctx.flags.keyword as unknown;
  const words = Array.isArray(value) ? value : typeof value === "string" ? [value] : [];
  return words.map(String).filter((w) => w.length > 0);
}

/** The scope a person chose on the command line. */
export function scopeOf(ctx: CommandContext): BundleScope {
  const chats = flagString(ctx, "chats");
  if (chats !== undefined && ctx.flags["all-chats"] === true)
    throw new OdaError("bad_input", "Give --chats ID,ID… or --all-chats, not both.");
  return {
    chats:
      ctx.flags["all-chats"] === true
        ? "all"
        : chats !== undefined
          ? chats
              .split(",")
              .map((c) => c.trim())
              .filter(Boolean)
          : null,
    since: flagString(ctx, "since") ?? null,
    memory: ctx.flags.memory === true,
    kinds: kindsOf(ctx),
    keywords: keywordsOf(ctx),
    dropText: ctx.flags["drop-text"] === true,
    ...(ctx.flags.notes === true ? { notes: true } : {}),
  };
}

const create: Command = async (ctx) => {
  const out = flagString(ctx, "output");
  if (!out) throw new OdaError("bad_input", "Give the bundle's file with -o FILE (for example -o support.tar.gz).");
  if (!ctx.roots.home && !ctx.roots.logs)
    throw new OdaError("bad_input", "Give the Oda home with --home DIR and the log folder with --logs DIR.");
  const target = resolve(out);
  if (existsSync(target)) throw new OdaError("refused", `${target} already exists; give another file name.`);
  let shown = "";
  const onProgress = (p: BundleProgress) => {
    const text = `oda-admin: ${p.phase} ${p.total ? Math.floor((100 * p.done) / p.total) : 100}%`;
    if (text === shown) return;
    shown = text;
    ctx.progress?.(text, false);
  };
  const version = readPackage().version;
  const scope = scopeOf(ctx);
  // On a bundle thread with its own heap limit where its file is at hand (always, but in a bare script).
  const thread = bundleThreadFile();
  const roots = { home: ctx.roots.home, logs: ctx.roots.logs, state: ctx.roots.state };
  const made = thread
    ? ((await runBundleThread(thread, { roots, scope, target, version }, onProgress)) as CreatedBundle)
    : await createBundle(roots, scope, target, { version, onProgress });
  ctx.progress?.("", true);
  const m = made.manifest;
  emit(ctx, { ok: true, file: made.file, map: made.mapFile, manifest: { ...m, files: m.counts.files } }, () =>
    [
      `Wrote ${made.file}: ${m.counts.files} files, ${m.counts.bytes} bytes, ${m.counts.chats} chats, ${m.counts.memories} memories.`,
      `Replaced: ${
        Object.entries(m.counts.replaced)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ") || "nothing"
      }.`,
      `The map from placeholders to the real values is in ${made.mapFile}; it stays on this computer: do not send it.`,
      `List the bundle with: tar -tzf ${made.file}`,
    ].join("\n"),
  );
  // Listed in the manifest and the report too; the bundle is made without them.
  return reportLeftOut(
    ctx,
    (m.leftOut ?? []).map((l) => `${l.path}: ${l.message}`),
  );
};

/** `--max-ratio N`: a whole number of at least 1, or the default. */
export function ratioFlag(ctx: CommandContext): number | undefined {
  return ratioOf(ctx.flags);
}

const verify: Command = async (ctx) => {
  const file = ctx.args[0];
  if (!file) throw new OdaError("bad_input", "Give the bundle's file: oda-admin bundle verify FILE.");
  const maxRatio = ratioFlag(ctx);
  const manifest = await readBundle(resolve(file));
  // Checked against the state folder it would be opened into, when there is one.
  const state = ctx.roots.state ?? (ctx.roots.home ? join(ctx.roots.home, ".oda-admin") : null);
  const freeIn = state && existsSync(state) ? state : undefined;
  const warning = expansionProblem(manifest, statSync(resolve(file)).size, { maxRatio, freeIn });
  const warnings = warning ? [`Opening it would be refused: ${warning.replace(/ Nothing was written\.$/, "")}`] : [];
  emit(
    ctx,
    {
      ok: true,
      file,
      createdAt: manifest.createdAt,
      bundleFormat: manifest.bundleFormat,
      files: manifest.files.length,
      redaction: manifest.redaction ?? null,
      warnings,
    },
    () =>
      [
        `${file}: the manifest and all ${manifest.files.length} files check out (bundle of ${manifest.createdAt}, Oda Admin ${manifest.odaAdminVersion}).`,
        ...redactionLines(manifest),
        ...warnings.map((w) => `warning: ${w}`),
      ].join("\n"),
  );
  return 0;
};

const diff: Command = async (ctx) => {
  const [a, b] = ctx.args;
  if (!a || !b) throw new OdaError("bad_input", "Give two bundles: oda-admin bundle diff BEFORE AFTER.");
  const compared = await diffBundles(resolve(a), resolve(b), { maxRatio: ratioFlag(ctx) });
  emit(ctx, { ok: true, ...compared }, () => formatBundleDiff(compared));
  return 0;
};

/** The bundle's redaction report as `bundle verify` prints it: each kind, its counts and files (never a value). */
function redactionLines(manifest: Manifest): string[] {
  const report = manifest.redaction;
  if (!report) return ["Redaction: this bundle carries no redaction report (made before Oda Admin had one)."];
  if (report.kinds.length === 0)
    return [`Redaction: nothing was replaced (kinds on: ${manifest.scope.redact.join(", ") || "none"}).`];
  return [
    `Redaction (keys by ${report.keyRules}):`,
    ...report.kinds.map(
      (k) =>
        `  ${k.kind}: ${plural(k.values, "value")}, ${plural(k.replacements, "replacement")} in ${plural(k.files.length, "file")}: ${k.files.join(", ")}`,
    ),
  ];
}

const redact: Command = async (ctx) => {
  const file = ctx.args[0];
  if (!file) throw new OdaError("bad_input", "Give the bundle to redact: oda-admin bundle redact IN -o OUT.");
  const out = flagString(ctx, "output");
  if (!out)
    throw new OdaError("bad_input", "Give the new bundle's file with -o FILE (for example -o redacted.tar.gz).");
  const map = flagString(ctx, "map");
  const made = await redactBundleAgain(resolve(file), resolve(out), {
    kinds: kindsOf(ctx),
    keywords: keywordsOf(ctx),
    mapFile: map === undefined ? null : resolve(map),
    version: readPackage().version,
  });
  const m = made.manifest;
  emit(ctx, { ok: true, file: made.file, map: made.mapFile, manifest: { ...m, files: m.counts.files } }, () =>
    [
      `Wrote ${made.file}: ${m.counts.files} files, ${m.counts.redactedFiles} of them redacted.`,
      ...redactionLines(m),
      `The map from placeholders to the real values is in ${made.mapFile}; do not send it.`,
    ].join("\n"),
  );
  return 0;
};

/** `bundle create`, `bundle verify`, `bundle diff` and `bundle redact`; `cli/registry.ts` holds their usage and options. */
export const bundleRuns = {
  "bundle create": create,
  "bundle verify": verify,
  "bundle diff": diff,
  "bundle redact": redact,
} satisfies Record<string, Command>;
