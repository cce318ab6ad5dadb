import { SEARCH_ROLES } from "../lib/search-index/extract";
import type { Command } from "./context";
import { bundleOptions, type CommandOptions } from "./options";
import { storageHelp, usageHelp } from "./usage-help";

export type { CommandOptions } from "./options";

/** What the CLI knows about a command before it loads it: enough for `--help` and parsing. */
export interface CommandEntry {
  summary: string;
  /**
   * The positional arguments it takes, as its help writes them: `ID`, `ID [VERSION]`,
   * `QUERY...` (any number). None when absent: every other word is refused as extra.
   */
  args?: string;
  /** Its help above the options every command takes, starting `Usage: oda-admin <command>`. */
  usage?: string;
  options?: CommandOptions;
  /** It changes files: refused with a sentence saying so when given `--bundle` (a bundle is read-only). */
  writes?: true;
  /** Imports the command's module only when it runs, so start-up reads no more than it uses. */
  load: () => Promise<Command>;
}

// Each domain's module is imported on first use; its runs are keyed by the command's words.
const doctor = () => import("./commands/doctor").then((m) => m.doctorRuns);
const memory = () => import("./commands/memory").then((m) => m.memoryRuns);
const memoryLint = () => import("./commands/memory-lint").then((m) => m.memoryLintRuns);
const sessions = () => import("./commands/sessions").then((m) => m.sessionRuns);
const search = () => import("./commands/search").then((m) => m.searchRuns);
const serve = () => import("./commands/serve").then((m) => m.serveRuns);
const repair = () => import("./commands/repair").then((m) => m.repairRuns);
const usage = () => import("./commands/usage").then((m) => m.usageRuns);
const bundle = () => import("./commands/bundle").then((m) => m.bundleRuns);
const notes = () => import("./commands/notes").then((m) => m.notesRuns);
const chatExport = () => import("./commands/chat-export").then((m) => m.chatExportRuns);

function from<R extends Record<string, Command>>(domain: () => Promise<R>, name: keyof R): () => Promise<Command> {
  return async () => (await domain())[name] as Command;
}

// Spelled out (not imported from lib/bundle) so that --help loads no bundle code.
const REDACT_KIND_LIST = "home, host, email, ip, key";

const workspace = { workspace: { type: "string", value: "KEY" } } as const;
const textOptions = {
  ...workspace,
  title: { type: "string", value: "T" },
  text: { type: "string", value: "X" },
  "text-file": { type: "string", value: "FILE|-" },
} as const;
const expect = { ...workspace, expect: { type: "string", value: "SHA256" } } as const;

const readWorkspace = { ...workspace, ...bundleOptions } as const;

/** Other spellings of a command, run as the command they name: the chats were called sessions. */
export const aliases: Record<string, string> = {
  "sessions list": "chats list",
  "session show": "chat show",
  "session export": "chat export",
};

/** Every CLI command, keyed by its words ("memory list"). */
export const commands: Record<string, CommandEntry> = {
  doctor: { summary: "list every problem under the roots", options: bundleOptions, load: from(doctor, "doctor") },
  "memory list": {
    summary: "list a set's memories, problems and deleted memories",
    options: readWorkspace,
    load: from(memory, "memory list"),
  },
  "memory show": {
    args: "ID",
    summary: "show one memory: memory show ID",
    options: readWorkspace,
    load: from(memory, "memory show"),
  },
  "memory history": {
    args: "ID",
    summary: "a memory's versions, newest first: memory history ID",
    options: readWorkspace,
    load: from(memory, "memory history"),
  },
  "memory create": {
    summary: "create a memory: --title T --text X (or --text-file F|-) [--off]",
    options: { ...textOptions, off: { type: "boolean" } },
    writes: true,
    load: from(memory, "memory create"),
  },
  "memory set": {
    args: "ID...",
    summary:
      "change a memory: memory set ID [--title T] [--text X] [--on|--off] [--expect SHA256]; several: memory set ID… --on|--off",
    options: { ...textOptions, ...expect, on: { type: "boolean" }, off: { type: "boolean" } },
    writes: true,
    load: from(memory, "memory set"),
  },
  "memory delete": {
    args: "ID...",
    summary: "delete memories: memory delete ID… [--expect SHA256 (one id)]",
    options: expect,
    writes: true,
    load: from(memory, "memory delete"),
  },
  "memory restore": {
    args: "ID...",
    summary: "restore deleted memories, or a version: memory restore ID… | memory restore ID VERSION",
    options: expect,
    writes: true,
    load: from(memory, "memory restore"),
  },
  "memory undo": {
    args: "[ID]",
    summary: "undo the chat change that made a memory's text: memory undo ID; a bulk change: memory undo --bulk ID",
    options: { ...expect, bulk: { type: "string", value: "ID" } },
    writes: true,
    load: from(memory, "memory undo"),
  },
  "memory move": {
    args: "ID...",
    summary: "move memories to another set, all or nothing: memory move ID… --to KEY|--to-global [--workspace KEY]",
    options: { ...workspace, to: { type: "string", value: "KEY" }, "to-global": { type: "boolean" } },
    writes: true,
    load: from(memory, "memory move"),
  },
  "memory payload": {
    summary: "what a chat in --workspace (or none) receives",
    options: readWorkspace,
    load: from(memory, "memory payload"),
  },
  "memory lint": {
    summary:
      "duplicates, conflicts, budgets and problem files: memory lint [--workspace KEY|--all] [--off-days N] (exit 1: findings)",
    options: { ...readWorkspace, all: { type: "boolean" }, "off-days": { type: "string", value: "N" } },
    load: from(memoryLint, "memory lint"),
  },
  "chats list": {
    summary: "list every chat of the log folder: --logs DIR [--json] (also: sessions list)",
    options: bundleOptions,
    load: from(sessions, "chats list"),
  },
  "chat show": {
    args: "ID",
    summary: "one chat: chat show ID [--from N] [--count K] [--raw] [--generation NAME] (also: session show)",
    options: {
      ...bundleOptions,
      from: { type: "string", value: "N" },
      count: { type: "string", value: "K" },
      raw: { type: "boolean" },
      generation: { type: "string", value: "NAME" },
    },
    load: from(sessions, "chat show"),
  },
  "chat export": {
    args: "ID",
    summary: "a chat as Markdown, HTML or JSONL: chat export ID --format md|html|jsonl [--redact] [-o FILE]",
    usage: `Usage: oda-admin chat export ID --format md|html|jsonl [options]

Writes one chat's log for reading elsewhere, streamed line by line:
  md     the conversation with roles, times and code blocks; tool calls and
         results folded in <details>
  html   one self-contained file: styles inline, no script, nothing fetched,
         light and dark
  jsonl  the log's lines (byte for byte unless redacted)

Options:
  --format md|html|jsonl   the form (default md)
  -o, --output FILE        write to this new file (default: standard output)
  --redact                 replace what a support bundle replaces (${REDACT_KIND_LIST}),
                           with the same placeholders; says what it replaced
  --keyword WORD           also replace this word (repeatable; implies --redact)
  --generation NAME        an older log of the chat (default: its current one)
`,
    options: {
      format: { type: "string", value: "md|html|jsonl" },
      output: { type: "string", short: "o", value: "FILE" },
      redact: { type: "boolean" },
      keyword: { type: "string", multiple: true, value: "WORD" },
      generation: { type: "string", value: "NAME" },
    },
    load: from(chatExport, "chat export"),
  },
  "notes list": {
    summary: "marks and notes on chat lines, kept or lost: notes list [--chat ID] [--json]",
    options: { chat: { type: "string", value: "ID" } },
    load: from(notes, "notes list"),
  },
  search: {
    args: "QUERY...",
    summary:
      'find chats: search "<query>" [--cwd DIR] [--role R] [--since ISO] [--until ISO] [--problems] [--no-refresh]',
    usage: `Usage: oda-admin search "<query>" [options]

Searches every chat of the log folder through the index in the state folder,
refreshing it first (only changed chats are read again).

Query syntax (SQLite FTS5): words (all must appear), "exact phrases", prefix*,
NOT, OR and parentheses, e.g.  budget NOT "staging server"

Options:
  --cwd DIR        only chats working in this folder
  --role R         only entries of this role: ${SEARCH_ROLES.join(", ")}
  --since ISO      only lines at or after this date (YYYY-MM-DD or a date-time)
  --until ISO      only lines at or before this date (a date includes the whole day, UTC)
  --problems       only chats with problems
  --with-notes     only chats with marks or notes
  --chats N        how many chats to show (default 50, most recent first)
  --no-refresh     search the index as it is
  (with --json each hit has the inspector's url)
`,
    options: {
      ...bundleOptions,
      cwd: { type: "string" },
      role: { type: "string" },
      since: { type: "string" },
      until: { type: "string" },
      problems: { type: "boolean" },
      "with-notes": { type: "boolean" },
      chats: { type: "string" },
      "no-refresh": { type: "boolean" },
    },
    load: from(search, "search"),
  },
  "index refresh": {
    summary: "bring the search index up to date (progress shown on a terminal)",
    options: bundleOptions,
    load: from(search, "index refresh"),
  },
  "index status": {
    summary: "the search index: where, how big, whether it is current",
    options: bundleOptions,
    load: from(search, "index status"),
  },
  serve: {
    summary: "serve the dashboard on 127.0.0.1: serve [--home DIR --logs DIR] [--port N|0] [--open]",
    usage: `Usage: oda-admin serve [options]

Starts the dashboard's production server on 127.0.0.1 and prints the one URL
to open (it carries a fresh access token). Ctrl+C stops it. With neither
--home nor --logs it serves demo data, generated into <state>/demo; the
state folder is then ~/.oda-admin unless --state says otherwise.

Options:
  --port N       the port (or ODA_ADMIN_PORT); 0 picks a free one; default the
                 first free port from 4377
  --open         open the URL in the browser, when the system has a way to
  --bundle FILE  serve a support bundle read-only: it is verified, unpacked
                 into <state>/bundles/ and every page shows it; every change
                 is refused
  --max-ratio N  with --bundle: allow it to unpack to up to N times its own
                 size (default 100); it must fit the state folder's free space
`,
    options: {
      port: { type: "string" },
      open: { type: "boolean" },
      bundle: { type: "string" },
      "max-ratio": { type: "string", value: "N" },
    },
    load: from(serve, "serve"),
  },
  "repair list": { summary: "every problem with a repair, and its id", load: from(repair, "repair list") },
  "repair apply": {
    args: "[ID]",
    summary: "repair apply ID [--dry-run] [--set-aside DIR] [--generation NAMES] | --all",
    options: {
      all: { type: "boolean" },
      "dry-run": { type: "boolean" },
      "set-aside": { type: "string", value: "DIR" },
      generation: { type: "string", value: "NAMES" },
    },
    writes: true,
    load: from(repair, "repair apply"),
  },
  "repair undo": {
    args: "REPAIR-ID",
    summary: "repair undo REPAIR-ID: put back every byte (or the latest repair of a repair list id)",
    writes: true,
    load: from(repair, "repair undo"),
  },
  "repair resume": {
    summary: "finish or roll back interrupted repairs [--dry-run]",
    options: { "dry-run": { type: "boolean" } },
    writes: true,
    load: from(repair, "repair resume"),
  },
  "repair done": { summary: "the repairs made, with their ids for undo", load: from(repair, "repair done") },
  "usage daily": {
    ...usageHelp("tokens and messages per day, by model", "oda-admin usage daily [options]"),
    load: from(usage, "usage daily"),
  },
  "usage weekly": {
    ...usageHelp("tokens and messages per week", "oda-admin usage weekly [options]"),
    load: from(usage, "usage weekly"),
  },
  "usage monthly": {
    ...usageHelp("tokens and messages per month", "oda-admin usage monthly [options]"),
    load: from(usage, "usage monthly"),
  },
  "usage chats": {
    ...usageHelp("the chats with the most tokens [--limit N, 0: all]", "oda-admin usage chats [--limit N] [options]", {
      limit: { type: "string" },
    }),
    load: from(usage, "usage chats"),
  },
  "usage folders": {
    ...usageHelp("tokens and messages per working folder", "oda-admin usage folders [options]"),
    load: from(usage, "usage folders"),
  },
  storage: {
    ...storageHelp,
    load: from(usage, "storage"),
  },
  "bundle create": {
    summary:
      "write a support bundle: bundle create -o FILE [--all-chats|--chats ID,…] [--memory] [--notes] [--keyword W]…",
    usage: `Usage: oda-admin bundle create -o FILE [options]

Writes one support bundle (a gzip-compressed tar: list it with tar -tzf FILE)
holding the manifest, the doctor report, settings.json and what you choose,
with every redaction kind on unless you turn it off. The map from
placeholders back to the real values is written beside it as FILE.map.json
and never into it: keep it, do not send it.

Options:
  -o, --output FILE   the bundle to write (a new file)
  --chats ID,ID…      these chats' folders (every generation, checkpoint, lock)
  --all-chats         every chat of the log folder
  --since ISO         only chats active at or after this date
  --memory            the memory sets with their history and deleted marks
  --redact KINDS      only these kinds (comma-separated): ${REDACT_KIND_LIST}
  --no-redact         redact nothing (files go in byte for byte)
  --keyword WORD      also replace this word wherever it occurs (repeatable)
  --drop-text         replace every message and memory text, keeping the structure
  --notes             the admin state's marks and notes on the chosen chats (redacted too)
`,
    options: {
      output: { type: "string", short: "o" },
      notes: { type: "boolean" },
      chats: { type: "string" },
      "all-chats": { type: "boolean" },
      since: { type: "string" },
      memory: { type: "boolean" },
      redact: { type: "string" },
      "no-redact": { type: "boolean" },
      keyword: { type: "string", multiple: true },
      "drop-text": { type: "boolean" },
    },
    writes: true,
    load: from(bundle, "bundle create"),
  },
  "bundle verify": {
    args: "FILE",
    summary: "check a support bundle's manifest and every checksum: bundle verify FILE [--max-ratio N]",
    options: { "max-ratio": { type: "string", value: "N" } },
    load: from(bundle, "bundle verify"),
  },
  "bundle diff": {
    args: "BEFORE AFTER",
    summary: "compare two bundles of one installation: bundle diff BEFORE AFTER [--json]",
    usage: `Usage: oda-admin bundle diff BEFORE AFTER [--json] [--max-ratio N]

Compares two support bundles of one installation, for example before and
after a fix: chats added, removed, grown and shrunk; problems that appeared
and went away (from each bundle's own doctor report); memories added, removed
and changed, with the changed lines; settings changed, key by key. Each of
BEFORE and AFTER is a bundle file (checked as bundle verify does, unpacked
into a temporary folder and removed afterwards) or the folder a bundle was
unpacked into. Exits 0 whether or not they differ.
`,
    options: { "max-ratio": { type: "string", value: "N" } },
    load: from(bundle, "bundle diff"),
  },
  "bundle redact": {
    args: "IN",
    summary: "redact a support bundle again: bundle redact IN -o OUT [--keyword W]… [--redact KINDS] [--map FILE]",
    usage: `Usage: oda-admin bundle redact IN -o OUT [options]

Checks the support bundle IN and writes it again as OUT with every file
redacted as bundle create does (for a bundle received unredacted, or made with
a keyword forgotten). Its doctor report goes in redacted. The map from
placeholders back to the real values is written beside OUT as OUT.map.json.

Options:
  -o, --output FILE   the bundle to write (a new file)
  --redact KINDS      only these kinds (comma-separated): ${REDACT_KIND_LIST}
  --keyword WORD      also replace this word wherever it occurs (repeatable)
  --map FILE          an earlier map of IN: each of its values keeps its placeholder
`,
    options: {
      output: { type: "string", short: "o" },
      redact: { type: "string" },
      keyword: { type: "string", multiple: true },
      map: { type: "string", value: "FILE" },
    },
    load: from(bundle, "bundle redact"),
  },
};
