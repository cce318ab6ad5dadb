import { join, relative } from "node:path";
import { type ListChatsOptions, listChats } from "./chats/list";
import { BULK_BATCH_OUTPUT } from "./chats/log-stream";
import { logFolderOf } from "./chats/settings";
import { lockFileProblem } from "./fs/home-lock";
import { lockLeftoverProblems } from "./fs/lock-leftovers";
import { listAllProblems } from "./memory/problems";

/**
 * The doctor: every problem under the roots, found by reading everything
 * through (each memory file, each log to its end). One implementation for
 * `oda-admin doctor`, the dashboard's Doctor page and the report a support
 * bundle carries; they differ only in how the logs are read (`DoctorOptions`).
 */

/** One problem of the doctor report; `path` is relative to the root it lies in. */
export interface DoctorProblem {
  path: string;
  message: string;
  /** Where a parser named one. */
  line?: number;
}

/** One root's problems: "memory" or "chat logs". */
export interface DoctorSection {
  name: string;
  problems: DoctorProblem[];
}

/** The doctor report as `oda-admin doctor --json` prints it. */
export interface DoctorReport {
  ok: boolean;
  sections: DoctorSection[];
}

/** How the logs are read: the CLI on list threads, a server or a bundle held to a memory budget. */
export type DoctorOptions = Pick<
  ListChatsOptions,
  "threads" | "batchSize" | "batchOutput" | "rebuild" | "asWalked" | "walkTurn"
>;

/**
 * Reading every log through within a bundle's memory budget (a bundle, the
 * dashboard's Doctor page): fewer chats at once than the chat list reads (their
 * decodes overlap) and smaller zstd batches; only the problems are kept.
 */
export const BOUNDED_READ: DoctorOptions = { batchSize: 32, batchOutput: BULK_BATCH_OUTPUT };

/**
 * The Doctor page's reading: bounded, and begun while the log folder is still walked (`asWalked`), so the first
 * problems show before a walk of 100,000 chat folders ends; the page shows the total once it is known.
 */
export const PAGE_READ: DoctorOptions = { ...BOUNDED_READ, asWalked: true };

/** The memory section: each set's problem files, and lock files an interrupted change left. */
export async function memoryDoctor(home: string): Promise<DoctorSection> {
  const problems = await listAllProblems(home);
  const lockPath = join(home, "memory-history", ".lock");
  const lockProblem = await lockFileProblem(lockPath);
  const homeLockProblems = (root: string) =>
    lockProblem ? [{ path: relative(root, lockPath), message: lockProblem }] : [];
  return {
    name: "memory",
    problems: [
      ...problems.map((p) => ({ path: p.path, message: p.message, ...(p.line === undefined ? {} : { line: p.line }) })),
      ...lockLeftoverProblems(home, [join(home, "memory-history")]),
      ...homeLockProblems(home),
    ],
  };
}

/** One step of the chat logs section as it is read: the problems found in the last batch of chats, and how far. */
export interface DoctorProgress {
  problems: DoctorProblem[];
  /** Chats read through so far, of `total` (`null` while the log folder is still walked: not known yet). */
  done: number;
  total: number | null;
}

/**
 * The chat logs section as it is read, a batch of chats at a time (the Doctor
 * page shows the first problems and its progress long before the last log is
 * read). Ending the loop early stops the reading.
 */
export async function* streamLogsDoctor(
  logs: string,
  home: string | null,
  options: DoctorOptions = {},
): AsyncGenerator<DoctorProgress> {
  const { compress } = logFolderOf({ home, logs });
  for await (const batch of listChats(logs, { ...options, compress, verify: true })) {
    const problems: DoctorProblem[] = [];
    for (const p of [...batch.problems, ...batch.chats.flatMap((c) => c.problems)])
      problems.push({ path: relative(logs, p.path) || ".", message: p.message });
    problems.push(
      ...lockLeftoverProblems(
        logs,
        batch.chats.map((c) => join(logs, c.folder)),
      ),
    );
    yield { problems, done: batch.done, total: batch.walked ? batch.total : null };
  }
}

/** The chat logs section: every chat read through (`verify`), in the folder's form from `home`'s settings. */
export async function logsDoctor(
  logs: string,
  home: string | null,
  options: DoctorOptions = {},
): Promise<DoctorSection> {
  const problems: DoctorProblem[] = [];
  for await (const step of streamLogsDoctor(logs, home, options)) problems.push(...step.problems);
  return { name: "chat logs", problems };
}

/** Every problem under the roots given (a root left out is not looked at). */
export async function runDoctor(
  roots: { home: string | null; logs: string | null },
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const sections = await Promise.all([
    roots.home ? memoryDoctor(roots.home) : null,
    roots.logs ? logsDoctor(roots.logs, roots.home, options) : null,
  ]);
  const found = sections.filter((s): s is DoctorSection => s !== null);
  return { ok: found.every((s) => s.problems.length === 0), sections: found };
}

/** The doctor report as a page a person reads (`doctor.txt` in a bundle). */
export function formatDoctor(report: DoctorReport, title: string): string {
  const lines = [title, "=".repeat(title.length), ""];
  const count = report.sections.reduce((n, s) => n + s.problems.length, 0);
  lines.push(count === 0 ? "No problems found." : `${count} problem${count === 1 ? "" : "s"} found.`, "");
  for (const s of report.sections) {
    lines.push(`${s.name}: ${s.problems.length === 0 ? "no problems" : ""}`.trimEnd());
    for (const p of s.problems) lines.push(`  ${p.path}${p.line === undefined ? "" : `:${p.line}`}: ${p.message}`);
    lines.push("");
  }
  return lines.join("\n");
}
