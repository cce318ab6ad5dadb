import { join, relative } from "node:path";
import { lockLeftoverProblems } from "../fs/lock-leftovers";
import { listAllProblems } from "../memory/problems";
import { listChats } from "../sessions/list";
import { readCompressSetting } from "../sessions/settings";
import { BULK_BATCH_OUTPUT } from "./redact-log";

/** One problem of the doctor report; `path` is relative to the root it lies in. */
export interface DoctorProblem {
  path: string;
  message: string;
  line?: number;
}

/** The doctor report as `oda-admin doctor --json` prints it. */
export interface DoctorReport {
  ok: boolean;
  sections: { name: string; problems: DoctorProblem[] }[];
}

/** Every problem under the roots, as `oda-admin doctor` finds them (the whole log folder, read through). */
export async function runDoctor(roots: { home: string | null; logs: string | null }): Promise<DoctorReport> {
  const sections: DoctorReport["sections"] = [];
  if (roots.home) {
    const problems = await listAllProblems(roots.home);
    sections.push({
      name: "memory",
      problems: [
        ...problems.map((p) => ({
          path: p.path,
          message: p.message,
          ...(p.line === undefined ? {} : { line: p.line }),
        })),
        ...lockLeftoverProblems(roots.home, [join(roots.home, "memory-history")]),
      ],
    });
  }
  if (roots.logs) {
    const root = roots.logs;
    const problems: DoctorProblem[] = [];
    const compress = readCompressSetting(roots.home);
    // Fewer chats at once than the chat list reads (their decodes overlap) and smaller zstd batches: this
    // read goes through every log and keeps only the problems, so it is held to a bundle's memory budget.
    const options = { compress, verify: true, batchSize: 32, batchOutput: BULK_BATCH_OUTPUT };
    for await (const batch of listChats(root, options)) {
      for (const p of [...batch.problems, ...batch.chats.flatMap((c) => c.problems)])
        problems.push({ path: relative(root, p.path) || ".", message: p.message });
      problems.push(
        ...lockLeftoverProblems(
          root,
          batch.chats.map((c) => join(root, c.folder)),
        ),
      );
    }
    sections.push({ name: "chat logs", problems });
  }
  return { ok: sections.every((s) => s.problems.length === 0), sections };
}

/** The doctor report as a page a person reads (`doctor.txt` in the bundle). */
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
