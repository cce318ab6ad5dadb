"use client";

import { useEffect, useState } from "react";
import { withPageNumbers } from "@/components/memory/page-numbers";
import { useSource } from "@/components/shell/source";
import { Alert } from "@/components/ui/alert";
import { Link } from "@/components/ui/link";
import { MomentText } from "@/components/ui/moment-text";
import { PathText } from "@/components/ui/path-text";
import { Progress } from "@/components/ui/progress";
import type { ErrorBody } from "@/lib/errors";
import { plural } from "@/lib/words";
import type { DoctorStep } from "@/server/reads/doctor-stream";
import type { DoctorItem } from "@/server/views/doctor-view";

const LINK = "text-blue-800 underline dark:text-blue-300";
/** How often found problems and progress are drawn: a step comes every 32 chats, 3,000 at 100,000 chats. */
const DRAW_EVERY_MS = 150;

interface SectionState {
  items: DoctorItem[];
  done: number;
  total: number | null;
  finished: boolean;
}

type Sections = Partial<Record<DoctorStep["section"], SectionState>>;

/** Reads `/api/doctor` as it is found, calling `draw` at most every `DRAW_EVERY_MS` with what is known so far. */
async function readDoctor(
  url: string,
  signal: AbortSignal,
  draw: (sections: Sections, error: string | null, ended: boolean) => void,
) {
  const sections: Sections = {};
  let drawn = 0;
  const response = await fetch(url, { signal, cache: "no-store" });
  if (!response.ok || !response.body) {
    draw(sections, (await response.text()).trim() || `The doctor report could not be read (${response.status}).`, true);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const lines = buffered.split("\n");
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (!line.trim()) continue;
      const step = JSON.parse(line) as DoctorStep | { error: ErrorBody };
      if ("error" in step) {
        draw({ ...sections }, step.error.message, true);
        return;
      }
      const was = sections[step.section];
      sections[step.section] = {
        items: was && step.items.length ? was.items.concat(step.items) : (was?.items ?? step.items),
        done: step.done,
        total: step.total,
        finished: step.finished,
      };
    }
    if (performance.now() - drawn >= DRAW_EVERY_MS) {
      drawn = performance.now();
      draw({ ...sections }, null, false);
    }
  }
  draw({ ...sections }, null, true);
}

function ProblemItems({ name, items }: { name: string; items: DoctorItem[] }) {
  return (
    <ul aria-label={`Problems: ${name}`} className="mt-2 space-y-3 text-sm">
      {items.map((p) => (
        <li
          key={`${p.path}:${p.line ?? ""}:${p.message}`}
          aria-label={p.place}
          className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800"
        >
          <p className="font-medium" title={p.path}>
            <PathText path={p.place} />
            {p.line === undefined ? "" : `, line ${p.line.toLocaleString("en")}`}
          </p>
          <p className="mt-1 break-words">
            <MomentText text={withPageNumbers(p.message)} />
          </p>
          {p.links.length > 0 && (
            <p className="mt-1 flex flex-wrap gap-x-4">
              {p.links.map((l) => (
                <Link key={l.label} className={LINK} href={l.href}>
                  {l.label}
                </Link>
              ))}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** What a section says under its heading: found so far while it is read, then what was read and found. */
function sectionSentence(name: DoctorStep["section"], s: SectionState | undefined, ended: boolean): string {
  if (!s) return ended ? "Not looked at." : "Waiting to be read…";
  const read = s.total === null ? "" : ` in ${plural(s.total, "chat")} read through`;
  if (!s.finished) return s.items.length ? "" : `No problems so far (${plural(s.done, "chat")} read).`;
  if (s.items.length) return "";
  return name === "memory" ? "No problems in the memory files." : `No problems${read}.`;
}

/**
 * The Doctor page's report, drawn as the server finds it: the memory first,
 * then the chat logs with a progress bar and each problem as soon as its
 * batch of chats is read. Leaving the page stops the server's reading.
 */
export function DoctorReport() {
  const { prefix } = useSource();
  const [state, setState] = useState<{ sections: Sections; error: string | null; ended: boolean }>({
    sections: {},
    error: null,
    ended: false,
  });
  useEffect(() => {
    const abort = new AbortController();
    readDoctor(`${prefix}/api/doctor`, abort.signal, (sections, error, ended) =>
      setState({ sections, error, ended }),
    ).catch((error: unknown) => {
      if (!abort.signal.aborted)
        setState((s) => ({ ...s, error: `The doctor report could not be read: ${String(error)}`, ended: true }));
    });
    return () => abort.abort();
  }, [prefix]);
  const { sections, error, ended } = state;
  const logs = sections["chat logs"];
  const found = (sections.memory?.items.length ?? 0) + (logs?.items.length ?? 0);
  const summary = !ended
    ? `${plural(found, "problem")} found so far.`
    : found === 0
      ? "No problems found."
      : `${plural(found, "problem")} found.`;
  return (
    <div>
      <p className="mb-4" role="status">
        {summary}
      </p>
      {!ended && (
        <div className="mb-4">
          <Progress
            label={logs ? "Reading every chat log through" : "Reading the memory files"}
            done={logs?.done ?? 0}
            total={logs?.total ?? null}
          />
        </div>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {(["memory", "chat logs"] as const).map((name) => {
        const s = sections[name];
        const id = `doctor-${name.replace(/\W/g, "-")}`;
        const sentence = sectionSentence(name, s, ended);
        return (
          <section key={name} aria-labelledby={id} className="mb-6">
            <h2 id={id} className="text-lg font-semibold">
              {name === "memory" ? "Memory" : "Chat logs"}
              {s?.items.length ? ` (${plural(s.items.length, "problem")}${s.finished ? "" : " so far"})` : ""}
            </h2>
            {sentence && <p className="mt-2 text-sm">{sentence}</p>}
            {s && s.items.length > 0 && <ProblemItems name={name} items={s.items} />}
          </section>
        );
      })}
    </div>
  );
}
