import { errorBody, isOdaError, OdaError } from "../lib/errors";
import { type CommandContext, makeRoots } from "./context";
import { readPackage } from "./package-root";
import { findCommand, GLOBAL_HELP, type ParsedArgs, parseCommand, usageOf } from "./parse";
import { type CommandEntry, commands } from "./registry";

const USAGE = `oda-admin — look after DataMind Oda's memories and chat logs

Usage: oda-admin <command> [options]   (oda-admin <command> --help: its options)

Every command takes:
${GLOBAL_HELP}
  --version         print the version

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(18)}${c.summary}`)
  .join("\n")}
`;

/** Runs the CLI with `argv` (without node and the script) and returns its exit code. */
export async function main(argv: string[], io = { out: console.log, err: console.error }): Promise<number> {
  const { command: match, words } = findCommand(argv);
  if (!match && words.length) {
    io.err(`oda-admin has no command ${words.join(" ")}.\n\n${USAGE}`);
    return 2;
  }
  let parsed: ParsedArgs;
  try {
    parsed = parseCommand(argv, match);
  } catch (error) {
    // Refused before the command loads: nothing has been read or written.
    io.err(`${isOdaError(error) ? error.message : String(error)}\n\n${match ? usageOf(match) : USAGE}`);
    return 2;
  }
  const { positionals, flags } = parsed;
  if (flags.version && !positionals.length) {
    io.out(readPackage().version);
    return 0;
  }
  if (!match || flags.help) {
    io.out(match ? usageOf(match) : USAGE);
    return 0;
  }
  const entry = commands[match] as CommandEntry;
  const ctx: CommandContext = {
    args: positionals.slice(match.split(" ").length),
    flags,
    json: flags.json === true,
    roots: makeRoots(flags),
    out: io.out,
    err: io.err,
  };
  try {
    const run = await entry.load();
    await applyLogLimits(ctx);
    return await run(ctx);
  } catch (thrown) {
    // A system error (a file the system would not give) is answered with its sentence, never "Unexpected error".
    const { systemErrorAsOda } = await import("../lib/fs/system-error");
    const error = systemErrorAsOda(thrown);
    const body = errorBody(error, `Unexpected error: ${(error as Error).message}`);
    if (ctx.json) io.out(JSON.stringify({ ok: false, error: body }, null, 2));
    else io.err(body.message);
    return 1;
  }
}

/**
 * The log limits for this run: the admin state's settings (problems printed),
 * then the flags. Imported when a command runs, so `--help` stays light.
 */
async function applyLogLimits(ctx: CommandContext): Promise<void> {
  const { readLogLimits, setLogLimits } = await import("../lib/sessions/limits");
  const { limits, problems } = readLogLimits(ctx.roots.state);
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
