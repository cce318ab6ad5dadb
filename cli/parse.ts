import { parseArgs } from "node:util";
import { OdaError } from "../lib/errors";
import { bundleOptions } from "./options";
import { aliases, type CommandEntry, type CommandOptions, commands } from "./registry";

/** The options every command takes, besides its own. */
export const GLOBAL_OPTIONS = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  home: { type: "string" },
  logs: { type: "string" },
  state: { type: "string" },
  "max-line-bytes": { type: "string" },
  "max-decoded-bytes": { type: "string" },
} satisfies CommandOptions;

/** What a run was given: its options (`--home DIR` → `{ home: "DIR" }`) and its positional words. */
export interface ParsedArgs {
  flags: Record<string, string | boolean>;
  positionals: string[];
}

// Every option any command declares, only to tell option values from positional
// words while the command is not known yet (`--home DIR memory list`).
const ANY_OPTION: CommandOptions = Object.assign({}, GLOBAL_OPTIONS, ...Object.values(commands).map((c) => c.options));

/**
 * The longest command whose words the positionals start with ("memory list"),
 * if any, and whether any positional word was given at all.
 */
export function findCommand(argv: string[]): { command: string | undefined; words: string[] } {
  const { positionals } = parseArgs({ args: argv, options: ANY_OPTION, strict: false, allowPositionals: true });
  const command = [...Object.keys(commands), ...Object.keys(aliases)]
    .filter((name) => name.split(" ").every((word, i) => positionals[i] === word))
    .sort((a, b) => b.split(" ").length - a.split(" ").length)[0];
  // An alias runs the command it names (`sessions list` is `chats list`).
  return { command: command === undefined ? undefined : (aliases[command] ?? command), words: positionals };
}

/** The commands that read a support bundle (`--bundle`), as help and refusals name them. */
export function bundleReaders(): string[] {
  return Object.keys(commands).filter((name) => readsBundle(commands[name]));
}

/** Whether a command reads a support bundle with `--bundle` (serve's own `--bundle` serves one instead). */
export function readsBundle(entry: CommandEntry | undefined): boolean {
  return entry?.options?.bundle === bundleOptions.bundle;
}

/** Why `command`, which does not take `--bundle`, refuses it. */
function bundleRefusal(command: string | undefined): string {
  const who = command ? `oda-admin ${command}` : "oda-admin";
  const entry = command ? commands[command] : undefined;
  const why = entry?.writes
    ? `${who} changes files, and a support bundle is read-only`
    : command === "bundle verify"
      ? `${who} takes the bundle's file as its argument (oda-admin bundle verify FILE), not --bundle`
      : `${who} does not read a support bundle`;
  return `${why}: --bundle is for the commands that only read: ${bundleReaders().join(", ")}.`;
}

/**
 * Parses `argv` against the global options and `command`'s own (none but the
 * global ones without a command). An option it does not take, a missing value or
 * a value given to a switch is refused as a `bad_input` naming it, so that a typo
 * (`--worksapce`) never runs the command with the option left out.
 */
export function parseCommand(argv: string[], command: string | undefined, group?: string): ParsedArgs {
  const own = command ? commands[command]?.options : group ? groupOptions(group) : {};
  const options: CommandOptions = { ...GLOBAL_OPTIONS, ...own };
  const who = command ? `oda-admin ${command}` : group ? `oda-admin ${group}` : "oda-admin";
  // Non-strict with tokens, so that each refusal names the option in our words, not node's.
  const { tokens = [] } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const declared = options[token.name];
    if (!declared && token.name === "bundle") throw new OdaError("bad_input", bundleRefusal(command));
    if (!declared) throw new OdaError("bad_input", `${who} has no option ${token.rawName}.`);
    if (declared.type === "boolean" && token.value !== undefined)
      throw new OdaError("bad_input", `${who}: ${token.rawName} takes no value.`);
    if (declared.type === "string" && (token.value === undefined || (!token.inlineValue && isOptionLike(token.value))))
      throw new OdaError(
        "bad_input",
        `${who}: ${token.rawName} needs a value (write ${token.rawName}=VALUE for one that starts with a dash).`,
      );
  }
  const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
  return { flags: values as ParsedArgs["flags"], positionals };
}

/** Node's strict parse takes a value such as `--text` for an option, not for `--title`'s value. */
function isOptionLike(value: string): boolean {
  return value.length > 1 && value.startsWith("-");
}

/** The options every command takes, as the help lists them. */
export const GLOBAL_HELP = `  --home DIR        the Oda home (or ODA_HOME)
  --logs DIR        the log folder (or ODA_LOG_DIR)
  --state DIR       the dashboard's state folder (or ODA_ADMIN_STATE; default <home>/.oda-admin)
  --json            print one JSON document
  --max-line-bytes N      show lines longer than N bytes truncated (admin state settings.json logs.maxLineBytes)
  --max-decoded-bytes N   stop reading a log after N decoded bytes (logs.maxDecodedBytes)
  -h, --help        this text`;

/** The exit codes of every command, as `--help` and the README print them. */
export const EXIT_HELP = `Exit status:
  0  done, nothing wrong
  1  refused, problems found (doctor, bundle verify), or items left out
  2  usage: an unknown command or option, a missing or extra argument, a bad option value`;

/** The end of every help text: the options every command takes and the exit codes. */
const HELP_END = `Every command takes:
${GLOBAL_HELP}

${EXIT_HELP}`;

/** The help of `--bundle`, in every command that takes it. */
export const BUNDLE_HELP = `Reading a support bundle (read only: nothing in it is changed):
  --bundle FILE|DIR  run on the bundle's Oda home and log folder instead of
                     --home and --logs. A FILE is checked (manifest and every
                     checksum) and unpacked into <state>/bundles/ once; a later
                     run on the same bundle reads that copy. A DIR is a bundle
                     unpacked there already (by serve --bundle or the dashboard).
  --max-ratio N      allow the bundle to unpack to up to N times its own size
                     (default 100)`;

/** A command's help: its own usage text, or one made from its summary and options; then the common end. */
export function usageOf(command: string): string {
  const entry = commands[command] as CommandEntry;
  const bundle = readsBundle(entry) ? `${BUNDLE_HELP}\n\n` : "";
  if (entry.usage) return `${entry.usage}\n${bundle}${HELP_END}`;
  const own = Object.entries(entry.options ?? {})
    .filter(([name]) => !(bundle && name in bundleOptions))
    .map(
      ([name, o]) =>
        `  ${o.short ? `-${o.short}, ` : ""}--${name}${o.type === "string" ? ` ${o.value ?? "VALUE"}` : ""}`,
    );
  return `Usage: oda-admin ${command}${entry.args ? ` ${entry.args}` : ""} [options]

${entry.summary}
${own.length ? `\nOptions:\n${own.join("\n")}\n` : ""}
${bundle}${HELP_END}`;
}

/** The first words of the commands that have several words (`memory`, `repair`, …). */
export function groupOf(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  if (Object.keys(commands).some((name) => name.startsWith(`${word} `))) return word;
  // An older spelling's group is its command's (`sessions` → `chats`).
  const alias = Object.keys(aliases).find((name) => name.startsWith(`${word} `));
  return alias ? aliases[alias]?.split(" ")[0] : undefined;
}

/** A group's help: its commands with their summaries, then the common end. */
export function groupUsage(group: string): string {
  const names = Object.keys(commands).filter((name) => name.startsWith(`${group} `));
  return `Usage: oda-admin ${group} <command> [options]   (oda-admin ${group} <command> --help: its options)

Commands:
${names.map((name) => `  ${name.padEnd(18)}${commands[name]?.summary}`).join("\n")}

${HELP_END}`;
}

/** The options the commands of a group take, to parse `oda-admin memory --workspace X --help`. */
export function groupOptions(group: string): CommandOptions {
  return Object.assign(
    {},
    ...Object.entries(commands)
      .filter(([name]) => name.startsWith(`${group} `))
      .map(([, c]) => c.options ?? {}),
  );
}

/**
 * Refuses positional words a command does not take, naming them (`args` in the
 * registry: `ID`, `ID [VERSION]`, `QUERY...`). Missing ones are left to the
 * command, which says what to give in its own words.
 */
export function checkArgs(command: string, args: string[]): void {
  const spec = (commands[command] as CommandEntry).args;
  const words = spec ? spec.split(" ") : [];
  if (words.some((w) => w.endsWith("..."))) return;
  if (args.length <= words.length) return;
  const extra = args.slice(words.length).map((a) => JSON.stringify(a));
  const list = extra.length === 1 ? extra[0] : `${extra.slice(0, -1).join(", ")} and ${extra[extra.length - 1]}`;
  const takes = spec ? `takes ${spec} only` : "takes no arguments";
  throw new OdaError("bad_input", `oda-admin ${command} ${takes}: ${list} ${extra.length === 1 ? "is" : "are"} extra.`);
}
