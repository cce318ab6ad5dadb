import { errorBody, isOdaError, OdaError } from "../lib/errors";
import type { Env } from "../lib/roots";
import { type CommandContext, listThreadsOf, makeRoots } from "./context";
import { ClosedOutputError, type Io, processIo } from "./io";
import { readPackage } from "./package-root";
import {
  bundleReaders,
  checkArgs,
  EXIT_HELP,
  findCommand,
  GLOBAL_HELP,
  groupOf,
  groupUsage,
  type ParsedArgs,
  parseCommand,
  readsBundle,
  usageOf,
} from "./parse";
import { aliases, type CommandEntry, commands } from "./registry";

const USAGE = `oda-admin — look after DataMind Oda's memories and chat logs

Usage: oda-admin <command> [options]   (oda-admin <command> --help: its options)

Every command takes:
${GLOBAL_HELP}
  --version         print the version

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(18)}${c.summary}`)
  .join("\n")}

${wrap(`The read commands also run on a support bundle with --bundle FILE|DIR (their --help says more): ${bundleReaders().join(", ")}.`)}
Older spellings still run: ${Object.entries(aliases)
  .map(([alias, name]) => `${alias} (${name})`)
  .join(", ")}.

${EXIT_HELP}`;

/** `text` in lines of at most 80 characters, broken between words. */
function wrap(text: string): string {
  const lines = [""];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (lines[last] && `${lines[last]} ${word}`.length > 80) lines.push(word);
    else lines[last] = lines[last] ? `${lines[last]} ${word}` : word;
  }
  return lines.join("\n");
}

/** The exit code of a usage error (see EXIT_HELP). */
const USAGE_ERROR = 2;
/** The exit code when standard output was closed by its reader (`| head`): a shell's 128 + SIGPIPE. */
export const CLOSED_OUTPUT = 141;

/**
 * Runs the CLI with `argv` (without node and the script) and returns its exit
 * code: 0 done, 1 refused, problems found or items left out, 2 usage
 * (`EXIT_HELP`); 141 when its reader closed standard output. `env` is the
 * environment, read here once (the roots' variables, `ODA_ADMIN_LIST_THREADS`)
 * and handed down in the command's context: nothing below reads `process.env`.
 */
export async function main(argv: string[], io: Io = processIo(), env: Env = process.env): Promise<number> {
  try {
    return await run(argv, io, env);
  } catch (error) {
    if (error instanceof ClosedOutputError) return CLOSED_OUTPUT;
    throw error;
  }
}

async function run(argv: string[], io: Io, env: Env): Promise<number> {
  const { command: match, words } = findCommand(argv);
  const group = match ? undefined : groupOf(words[0]);
  if (!match && words.length && !(group && words.length === 1)) {
    io.err(`oda-admin has no command ${words.join(" ")}.\n\n${group ? groupUsage(group) : USAGE}`);
    return USAGE_ERROR;
  }
  let parsed: ParsedArgs;
  try {
    parsed = parseCommand(argv, match, group);
    if (match && !parsed.flags.help) checkArgs(match, parsed.positionals.slice(match.split(" ").length));
  } catch (error) {
    // Refused before the command loads: nothing has been read or written.
    const help = match ? usageOf(match) : group ? groupUsage(group) : USAGE;
    io.err(`${isOdaError(error) ? error.message : String(error)}\n\n${help}`);
    return USAGE_ERROR;
  }
  const { positionals, flags } = parsed;
  const json = flags.json === true;
  if (flags.version && !positionals.length) {
    const { version } = readPackage();
    io.out(json ? JSON.stringify({ ok: true, version }, null, 2) : version);
    return 0;
  }
  if (group) {
    if (flags.help) {
      io.out(groupUsage(group));
      return 0;
    }
    io.err(`oda-admin ${group} needs one of its commands.\n\n${groupUsage(group)}`);
    return USAGE_ERROR;
  }
  if (!match || flags.help) {
    io.out(match ? usageOf(match) : USAGE);
    return 0;
  }
  const entry = commands[match] as CommandEntry;
  const ctx: CommandContext = {
    args: positionals.slice(match.split(" ").length),
    flags,
    json,
    roots: makeRoots(flags, env),
    listThreads: listThreadsOf(env),
    out: io.out,
    err: io.err,
    // Progress is for a person watching a terminal: never in a pipe or a log file, never with --json.
    progress: !json && io.progress ? io.progress : null,
  };
  try {
    const load = await entry.load();
    // The roots are made once, here: a bundle's replace the live ones for the whole run.
    if (typeof flags.bundle === "string" && readsBundle(entry)) {
      const { bundleRoots } = await import("./bundle-roots");
      const opened = await bundleRoots(flags, ctx.roots, io.err);
      ctx.roots = opened.roots;
      ctx.bundle = opened.bundle;
    }
    await applyLogLimits(ctx);
    return await load(ctx);
  } catch (thrown) {
    if (thrown instanceof ClosedOutputError) throw thrown;
    // A system error (a file the system would not give) is answered with its sentence, never "Unexpected error".
    const { systemErrorAsOda } = await import("../lib/fs/system-error");
    const error = systemErrorAsOda(thrown);
    const body = errorBody(error, `Unexpected error: ${(error as Error).message}`);
    if (ctx.json) io.out(JSON.stringify({ ok: false, error: body }, null, 2));
    else io.err(body.message);
    // A malformed request (a missing argument or root, a bad value) is a usage error; anything else a refusal.
    return isOdaError(error) && error.code === "bad_input" ? USAGE_ERROR : 1;
  }
}

/**
 * The log limits for this run: the admin state's settings (problems printed),
 * then the flags. Imported when a command runs, so `--help` stays light.
 */
async function applyLogLimits(ctx: CommandContext): Promise<void> {
  const { readLogLimits, setLogLimits } = await import("../lib/chats/limits");
  // A bundle's limits are this computer's: its admin state's settings, not the bundle's own state folder.
  const { limits, problems } = readLogLimits(ctx.bundle ? ctx.bundle.adminState : ctx.roots.state);
  for (const p of problems) ctx.err(p);
  const chosen = { ...limits };
  for (const [flag, key] of [
    ["max-line-bytes", "maxLineBytes"],
    ["max-decoded-bytes", "maxDecodedBytes"],
  ] as const) {
    const value = ctx.flags[flag];
    if (value === undefined) continue;
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < 1024)
      throw new OdaError("bad_input", `--${flag} needs a whole number of bytes, at least 1024.`);
    chosen[key] = n;
  }
  setLogLimits(chosen);
}
