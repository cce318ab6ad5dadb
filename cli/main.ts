import { parseArgs } from "node:util";
import { isOdaError } from "../lib/errors";
import { type CommandContext, makeRoots } from "./context";
import { readPackage } from "./package-root";
import { type CommandEntry, commands } from "./registry";

const USAGE = `oda-admin — look after DataMind Oda's memories and chat logs

Usage: oda-admin <command> [options]

Global options:
  --version         print the version
  --home DIR        the Oda home (or ODA_HOME)
  --logs DIR        the log folder (or ODA_LOG_DIR)
  --state DIR       the dashboard's state folder (or ODA_ADMIN_STATE)
  --workspace KEY   a workspace's memory set (absent: the global set)
  --json            print one JSON document

Commands:
${Object.entries(commands)
  .map(([name, c]) => `  ${name.padEnd(18)}${c.summary}`)
  .join("\n")}
`;

/** Runs the CLI with `argv` (without node and the script) and returns its exit code. */
export async function main(argv: string[], io = { out: console.log, err: console.error }): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: false,
      options: {
        json: { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
        home: { type: "string" },
        logs: { type: "string" },
        state: { type: "string" },
        workspace: { type: "string" },
        // Each command may declare its own options (e.g. `--title T`); without a
        // declaration `--title T` would parse as a boolean and a positional.
        ...Object.assign({}, ...Object.values(commands).map((c) => c.options ?? {})),
      },
    });
  } catch (error) {
    io.err(String(error));
    return 2;
  }
  const positionals = parsed.positionals;
  const flags = parsed.values as Record<string, string | boolean>;
  if (flags.version && !positionals.length) {
    io.out(readPackage().version);
    return 0;
  }
  // Find the longest command name that the positionals start with ("memory list", "doctor").
  const match = Object.keys(commands)
    .filter((name) => {
      const words = name.split(" ");
      return words.every((w, i) => positionals[i] === w);
    })
    .sort((a, b) => b.split(" ").length - a.split(" ").length)[0];
  if (!match || flags.help) {
    (match ? io.out : positionals.length ? io.err : io.out)(match ? (commands[match]?.usage ?? USAGE) : USAGE);
    return match || !positionals.length ? 0 : 2;
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
    return await run(ctx);
  } catch (error) {
    const message = isOdaError(error) ? error.message : `Unexpected error: ${(error as Error).message}`;
    if (ctx.json) io.out(JSON.stringify({ ok: false, error: message }, null, 2));
    else io.err(message);
    return 1;
  }
}
