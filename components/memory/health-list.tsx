"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Link } from "@/components/ui/link";
import { QueryState } from "@/components/ui/query-state";
import { WriteButton } from "@/components/ui/write-button";
import { memoryHref, memoryPages } from "@/lib/routes";
import type { BulkAction, LintFinding, LintMemory } from "@/lib/types";
import { DiffView } from "./diff-view";
import { chatWhere, setName } from "./names";
import { memoryQueries } from "./queries";
import { useBulkChange } from "./use-bulk-change";

const HEADINGS: Record<LintFinding["kind"], string> = {
  problem: "Problem files",
  conflict: "Conflicts: the same title, different texts",
  exact: "Exact duplicates",
  near: "Near duplicates",
  off: "Turned off for a long time",
  limit: "Close to a limit",
  budget: "Chats close to the token limit",
};
const ORDER: LintFinding["kind"][] = ["problem", "conflict", "exact", "near", "off", "limit", "budget"];

/** A change a finding offers, shown in full before it is made. */
interface Proposal {
  title: string;
  verb: string;
  action: BulkAction;
  targets: LintMemory[];
  keep?: LintMemory;
}

const nameOf = (m: LintMemory) => m.title || m.id;

function MemoryLink({ m }: { m: LintMemory }) {
  return (
    <>
      <Link href={memoryHref(m.workspace, m.id)} className="text-blue-800 underline dark:text-blue-300">
        {nameOf(m)}
      </Link>{" "}
      <span className="text-xs text-zinc-700 dark:text-zinc-300">
        {setName(m.workspace)} · <code>{m.id}</code>
        {m.enabled ? "" : " · off"} · ~{m.tokens} tokens
      </span>
    </>
  );
}

function Members({ memories }: { memories: LintMemory[] }) {
  return (
    <ul className="mt-1 list-disc space-y-1 pl-5">
      {memories.map((m) => (
        <li key={`${m.workspace ?? ""}/${m.id}`}>
          <MemoryLink m={m} />
        </li>
      ))}
    </ul>
  );
}

/** The changes a group of duplicates offers: keep the first, turn off, or delete (merge into one) the others. */
function groupProposals(memories: LintMemory[], what: string): Proposal[] {
  const [keep, ...rest] = memories;
  if (!keep) return [];
  const all: Proposal[] = [
    {
      title: `Turn off the ${what}`,
      verb: "Turn off",
      action: { kind: "off" },
      targets: rest.filter((m) => m.enabled),
      keep,
    },
    { title: "Merge into one", verb: "Delete", action: { kind: "delete" }, targets: rest, keep },
  ];
  return all.filter((p) => p.targets.length > 0);
}

function proposalsOf(f: LintFinding): Proposal[] {
  switch (f.kind) {
    case "exact":
      return groupProposals(f.memories, "duplicates");
    case "near":
    case "conflict":
      return groupProposals(f.memories, "others");
    case "off":
      return [{ title: "Delete it", verb: "Delete", action: { kind: "delete" }, targets: [f.memory] }];
    default:
      return [];
  }
}

function describeFinding(f: LintFinding) {
  switch (f.kind) {
    case "problem":
      return (
        <p>
          <code className="break-all">{f.path}</code>: {f.message}{" "}
          <Link href={memoryPages.problems} className="text-blue-800 underline dark:text-blue-300">
            Fix it on the Problems page
          </Link>
        </p>
      );
    case "conflict":
      return (
        <>
          <p>“{f.title}” has different texts in one chat.</p>
          <Members memories={f.memories} />
        </>
      );
    case "exact":
      return (
        <>
          <p>
            The same text{f.sameChat ? ", sent twice to one chat" : " in several workspaces"} (case, spacing and
            emphasis aside).
          </p>
          <Members memories={f.memories} />
        </>
      );
    case "near":
      return (
        <>
          <p>Texts with most of their words in common{f.sameChat ? "" : " (in different workspaces)"}.</p>
          <Members memories={f.memories} />
          {f.pairs.map((p) => {
            const a = f.memories[p.a] as LintMemory;
            const b = f.memories[p.b] as LintMemory;
            return (
              <details key={`${p.a}-${p.b}`} className="mt-2">
                <summary>
                  {Math.round(p.score * 100)}% of words in common: {nameOf(a)} and {nameOf(b)}
                </summary>
                <DiffView diff={p.diff} mode="inline" oldLabel={nameOf(a)} newLabel={nameOf(b)} />
              </details>
            );
          })}
        </>
      );
    case "off":
      return (
        <p>
          <MemoryLink m={f.memory} /> has been off for {f.days} days.
        </p>
      );
    case "limit":
      return (
        <p>
          <MemoryLink m={f.memory} />: {f.value.toLocaleString("en")} of {f.max.toLocaleString("en")} (
          {f.limit === "titleMaxChars" ? "title characters" : f.limit === "textMaxChars" ? "characters" : "bytes"}).
        </p>
      );
    case "budget":
      return (
        <>
          <p>
            A chat in {chatWhere(f.workspace)} receives ~{f.tokens.toLocaleString("en")} of{" "}
            {f.limit.toLocaleString("en")} tokens. The costliest memories:
          </p>
          <Members memories={f.costliest} />
        </>
      );
  }
}

function findingLabel(f: LintFinding, i: number): string {
  const first = "memories" in f ? f.memories[0] : "memory" in f ? f.memory : null;
  return `${HEADINGS[f.kind]} ${i + 1}${first ? `: ${nameOf(first)}` : f.kind === "budget" ? `: ${chatWhere(f.workspace)}` : ""}`;
}

/** A finding's identity: its kind and what it names. */
function findingKey(f: LintFinding): string {
  const ref = (m: LintMemory) => `${m.workspace ?? ""}/${m.id}`;
  if ("memories" in f) return `${f.kind}:${f.memories.map(ref).join(",")}`;
  if ("memory" in f) return `${f.kind}:${ref(f.memory)}:${"limit" in f ? f.limit : ""}`;
  if (f.kind === "budget") return `budget:${f.workspace ?? ""}`;
  return `problem:${f.path}`;
}

/** The Memory health page: every lint finding, with links to the memories and changes shown before they are made. */
export function HealthList() {
  const query = useQuery(memoryQueries.health());
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const change = useBulkChange(() => setProposal(null));
  if (!query.isSuccess) return <QueryState query={query} loading="Checking every memory…" />;
  const report = query.data;
  const total = report.findings.length;
  return (
    <div className="space-y-8">
      <p aria-live="polite">
        {total === 0
          ? `No findings in ${report.memories} memories.`
          : `${total} ${total === 1 ? "finding" : "findings"} in ${report.memories} memories.`}
      </p>
      {ORDER.map((kind) => {
        const findings = report.findings.filter((f) => f.kind === kind);
        if (!findings.length) return null;
        return (
          <section key={kind} aria-labelledby={`health-${kind}`} className="space-y-3">
            <h2 id={`health-${kind}`} className="text-lg font-semibold">
              {HEADINGS[kind]} ({findings.length})
            </h2>
            <ul className="space-y-3">
              {findings.map((f, i) => (
                <li
                  key={findingKey(f)}
                  aria-label={findingLabel(f, i)}
                  className="rounded-md border border-zinc-300 p-3 text-sm dark:border-zinc-700"
                >
                  {describeFinding(f)}
                  <div className="mt-2 flex flex-wrap gap-2">
                    {proposalsOf(f).map((p) => (
                      <WriteButton key={p.title} onClick={() => setProposal(p)} disabled={change.isPending}>
                        {p.title}
                      </WriteButton>
                    ))}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
      <ConfirmDialog
        open={proposal !== null}
        title={proposal?.title ?? ""}
        confirmLabel={`${proposal?.verb ?? ""} ${proposal?.targets.length ?? 0} ${proposal?.targets.length === 1 ? "memory" : "memories"}`}
        danger={proposal?.action.kind === "delete"}
        onCancel={() => setProposal(null)}
        onConfirm={() =>
          proposal &&
          change.mutate({
            targets: proposal.targets.map((m) => ({ workspace: m.workspace, id: m.id })),
            action: proposal.action,
          })
        }
      >
        {proposal?.keep && (
          <p>
            Keeps “{nameOf(proposal.keep)}” ({setName(proposal.keep.workspace)}) as it is.
          </p>
        )}
        <p>
          {proposal?.verb} {proposal?.action.kind === "delete" ? "(into Recently deleted)" : ""}:
        </p>
        <ul className="list-disc pl-5">
          {proposal?.targets.map((m) => (
            <li key={`${m.workspace ?? ""}/${m.id}`}>
              “{nameOf(m)}” ({setName(m.workspace)}, {m.id})
            </li>
          ))}
        </ul>
        <p>One Undo puts every one of them back.</p>
      </ConfirmDialog>
    </div>
  );
}
