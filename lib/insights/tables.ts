import { formatBinarySize } from "../bytes";
import { chatHref } from "../routes";
// From the shared types module: chart-card and the tables run in the browser too.
import type {
  ActivityReport,
  ChatUsage,
  FolderUsage,
  MemoryInsights,
  PeriodReport,
  StorageReport,
  StorageSums,
  UsageSums,
} from "../types";
import {
  dayFilter,
  filteredChatsHref,
  folderChatsFilter,
  folderFilter,
  formatChatsFilter,
  listHref,
  modelFilter,
  periodFilter,
  startedDayFilter,
  storageFilter,
} from "./links";
import type { ReportScope } from "./usage";

/**
 * The Insights page's tables, as plain data: each chart's table view, its CSV
 * download and the tests read the same rows, so what a screen reader hears is
 * what the chart draws and what the CLI prints.
 */

/** Bytes in binary units with one decimal; the tables and `--json` keep every byte; the page and `oda-admin storage` share it. */
export function formatBytes(bytes: number): string {
  return formatBinarySize(bytes, "B");
}

/** One column: `numeric` columns are right-aligned and summed by charts. */
export interface Column {
  label: string;
  numeric?: boolean;
}

/** A table: a caption, its columns and its rows (cells in column order). */
export interface Table {
  caption: string;
  columns: Column[];
  rows: (string | number)[][];
  /**
   * Per linked column (by its label: "Total tokens", "Chats", "Chats started", "Chats active", "Total bytes"),
   * per row, the chat list of the chats that cell sums or counts (null: no such list).
   */
  links?: Record<string, (string | null)[]>;
}

const NO_FOLDER = "(no working folder)";
const NO_MODEL = "(no model)";
const num = (label: string): Column => ({ label, numeric: true });
const SUM_COLUMNS = [
  num("Messages"),
  num("Format 1 messages"),
  num("Input tokens"),
  num("Output tokens"),
  num("Total tokens"),
];
const sumCells = (s: UsageSums) => [s.messages, s.messagesWithoutUsage, s.inputTokens, s.outputTokens, s.totalTokens];

/** The same chat-list links under several columns of a table. */
function linked(columns: string[], hrefs: (string | null)[]): { links: Record<string, (string | null)[]> } {
  return { links: Object.fromEntries(columns.map((c) => [c, hrefs])) };
}

/** Tokens and messages per period. */
export function periodTable(r: PeriodReport): Table {
  const unit = r.period === "daily" ? "Day" : r.period === "weekly" ? "Week (Monday)" : "Month";
  return {
    caption: `Tokens and messages per ${unit.toLowerCase().replace(" (monday)", "")}, ${r.scope.timezone}`,
    columns: [{ label: unit }, ...SUM_COLUMNS, num("Chats"), { label: "Models" }],
    rows: r.rows.map((p) => [p.period, ...sumCells(p), p.chats, p.modelsUsed.join(", ")]),
    ...linked(
      ["Total tokens", "Chats"],
      r.rows.map((p) => filteredChatsHref(periodFilter(r.scope, r.period, p.period))),
    ),
  };
}

/** Totals per model. */
export function modelTable(r: PeriodReport): Table {
  return {
    caption: "Tokens and messages per model",
    columns: [{ label: "Model" }, ...SUM_COLUMNS],
    rows: r.totals.modelBreakdowns.map((m) => [m.modelName || NO_MODEL, ...sumCells(m)]),
    ...linked(
      ["Total tokens"],
      r.totals.modelBreakdowns.map((m) => filteredChatsHref(modelFilter(r.scope, m.modelName))),
    ),
  };
}

/** Totals per working folder (with the report's scope, each total links to its chats). */
export function folderUsageTable(folders: FolderUsage[], scope?: ReportScope): Table {
  return {
    caption: "Tokens and messages per working folder",
    columns: [{ label: "Working folder" }, num("Chats"), ...SUM_COLUMNS],
    rows: folders.map((f) => [f.cwd ?? NO_FOLDER, f.chats, ...sumCells(f)]),
    ...(scope &&
      linked(
        ["Chats", "Total tokens"],
        folders.map((f) => filteredChatsHref(folderFilter(scope, f.cwd))),
      )),
  };
}

/** The chats with the most tokens. */
export function chatUsageTable(chats: ChatUsage[]): Table {
  return {
    caption: "Chats with the most tokens",
    columns: [{ label: "Chat" }, { label: "Title" }, { label: "Working folder" }, ...SUM_COLUMNS, { label: "Models" }],
    rows: chats.map((c) => [
      c.id,
      c.title ?? "(untitled)",
      c.cwd ?? NO_FOLDER,
      ...sumCells(c),
      c.modelsUsed.join(", "),
    ]),
    // A chat's tokens link to the lines they come from: its log, showing the lines with usage.
    ...linked(
      ["Total tokens"],
      chats.map((c) => `${chatHref(c.id, { view: "raw" })}&usage=1`),
    ),
  };
}

/** Chats started and active per day. */
export function activityTable(r: ActivityReport): Table {
  return {
    caption: `Chats started and active per day, ${r.scope.timezone}`,
    columns: [{ label: "Day" }, num("Chats started"), num("Chats active")],
    rows: r.days.map((d) => [d.date, d.started, d.active]),
    links: {
      "Chats started": r.days.map((d) => (d.started ? listHref(startedDayFilter(r.scope, d.date)) : null)),
      "Chats active": r.days.map((d) => (d.active ? filteredChatsHref(dayFilter(r.scope, d.date)) : null)),
    },
  };
}

/** Chats per working folder. */
export function activityFolderTable(r: ActivityReport): Table {
  return {
    caption: "Chats per working folder",
    columns: [{ label: "Working folder" }, num("Chats")],
    rows: r.folders.map((f) => [f.cwd ?? NO_FOLDER, f.chats]),
    ...linked(
      ["Chats"],
      r.folders.map((f) => listHref(folderChatsFilter(r.scope, f.cwd))),
    ),
  };
}

const STORAGE_COLUMNS = [
  num("Total bytes"),
  num("Current logs"),
  num("Decompressed"),
  num("Older generations"),
  num("Checkpoints"),
  num("Locks"),
];
const storageCells = (s: StorageSums) => [
  s.totalBytes,
  s.currentBytes,
  s.decompressedBytes,
  s.olderBytes,
  s.checkpointBytes,
  s.lockBytes,
];

/** Bytes per working folder. */
export function storageFolderTable(r: StorageReport): Table {
  return {
    caption: "Bytes on disk per working folder",
    columns: [{ label: "Working folder" }, num("Chats"), ...STORAGE_COLUMNS],
    rows: r.folders.map((f) => [f.cwd ?? NO_FOLDER, f.chats, ...storageCells(f)]),
    ...linked(
      ["Chats", "Total bytes"],
      r.folders.map((f) => filteredChatsHref(storageFilter(f.cwd))),
    ),
  };
}

/** The largest chats. */
export function largestChatsTable(r: StorageReport): Table {
  return {
    caption: "Largest chats",
    columns: [{ label: "Chat" }, { label: "Working folder" }, num("Format"), ...STORAGE_COLUMNS],
    rows: r.largest.map((c) => [c.id, c.cwd ?? NO_FOLDER, c.format ?? "", ...storageCells(c)]),
    ...linked(
      ["Total bytes"],
      r.largest.map((c) => chatHref(c.id)),
    ),
  };
}

/** Current logs per format, stored against decompressed. */
export function formatTable(r: StorageReport): Table {
  return {
    caption: "Current logs per format: stored against decompressed bytes",
    columns: [{ label: "Format" }, num("Logs"), num("Bytes on disk"), num("Decompressed bytes")],
    rows: r.byFormat.map((g) => [
      g.format === null ? "(no usable log)" : `format ${g.format}`,
      g.logs,
      g.bytes,
      g.decompressedBytes,
    ]),
    // A format's logs: the chat list's own format filter (in the report's folder); "(no usable log)" is the
    // chats whose log files are all unusable, which the list tells from chat folders with no log file.
    ...linked(
      ["Logs"],
      r.byFormat.map((g) => listHref(formatChatsFilter(r.cwd, g.format))),
    ),
  };
}

/** What a chat in each workspace receives against the limit. */
export function budgetTable(m: MemoryInsights): Table {
  return {
    caption: "Memory tokens a chat receives, per workspace, against the limit",
    columns: [{ label: "Workspace" }, num("Global tokens"), num("Workspace tokens"), num("Tokens"), num("Limit")],
    rows: m.budgets.map((b) => [b.workspace ?? "(no workspace)", b.globalTokens, b.workspaceTokens, b.tokens, b.limit]),
  };
}

/** Memories per set and source. */
export function memorySetTable(m: MemoryInsights): Table {
  return {
    caption: "Memories per set and source",
    columns: [
      { label: "Set" },
      num("Memories"),
      num("On"),
      num("Off"),
      num("By a person"),
      num("By the agent"),
      num("Files with problems"),
    ],
    rows: m.sets.map((s) => [
      s.workspace === null ? "global" : `workspace ${s.workspace}`,
      s.memories,
      s.enabled,
      s.disabled,
      s.bySource.user,
      s.bySource.ai,
      s.problems,
    ]),
  };
}

/** A table as CSV (RFC 4180: fields with a comma, quote or line break are quoted). */
export function toCsv(t: Table): string {
  const cell = (v: string | number) => {
    const s = String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return (
    [t.columns.map((c) => cell(c.label)), ...t.rows.map((r) => r.map(cell))].map((r) => r.join(",")).join("\r\n") +
    "\r\n"
  );
}
