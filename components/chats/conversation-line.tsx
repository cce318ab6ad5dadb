"use client";

import type { ReactNode } from "react";
import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import type { LineView } from "@/lib/types";
import { formatCount } from "./format";
import { isLongLine, LongLineNote } from "./long-line";
import { MessageMarkdown } from "./markdown";
import { LineGutter } from "./raw-line";
import type { ToolPairs } from "./tool-pairs";

/** What a message needs besides its line: the tool calls paired with their results, and links to other lines. */
interface Context {
  tools: ToolPairs;
  hrefOf: (n: number) => string;
}

const LINK = "text-blue-800 underline dark:text-blue-300";

type Json = Record<string, unknown>;

const ROLE_TONE: Record<string, string> = {
  user: "border-l-blue-600 bg-blue-50/60 dark:bg-blue-950/40",
  assistant: "border-l-emerald-600 bg-emerald-50/60 dark:bg-emerald-950/40",
  system: "border-l-zinc-500 bg-zinc-50 dark:bg-zinc-900",
};

function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

function pretty(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v, null, 2);
}

/** A folded block (tool calls, results, memory): a native <details>, keyboard-operable. */
function Fold({ summary, children, tone = "" }: { summary: ReactNode; children: ReactNode; tone?: string }) {
  return (
    <details className={`mt-1 rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700 ${tone}`}>
      <summary className="cursor-pointer text-xs font-medium">{summary}</summary>
      <div className="mt-1">{children}</div>
    </details>
  );
}

function PartBody({ value }: { value: unknown }) {
  return <pre className="font-mono text-xs break-all whitespace-pre-wrap">{pretty(value)}</pre>;
}

/** A tool call, with its result from the line that holds it (found by id among the lines loaded so far). */
function ToolCall({ p, ctx }: { p: Json; ctx: Context }) {
  const id = str(p.id);
  const result = id ? ctx.tools.get(id)?.result : undefined;
  return (
    <Fold summary={`Tool call: ${str(p.name) ?? "?"}${id ? ` (${id})` : ""}`}>
      <PartBody value={p.input} />
      <div className={`mt-1 border-t border-dashed pt-1 ${result?.isError ? "border-red-500" : "border-zinc-400"}`}>
        {result ? (
          <>
            <p className="text-xs font-medium">
              Result{result.isError ? " (error)" : ""},{" "}
              <Link href={ctx.hrefOf(result.n)} className={LINK}>
                line {formatCount(result.n)}
              </Link>
              :
            </p>
            <PartBody value={result.content} />
          </>
        ) : (
          <p className="text-xs">Its result is not among the lines read so far (scroll on, or it was never saved).</p>
        )}
      </div>
    </Fold>
  );
}

/** A tool result, naming the call it answers and linking to its line. */
function ToolResult({ p, ctx }: { p: Json; ctx: Context }) {
  const id = str(p.tool_use_id);
  const call = id ? ctx.tools.get(id)?.call : undefined;
  const error = p.is_error === true;
  return (
    <Fold
      summary={`Tool result${error ? " (error)" : ""}${id ? ` for ${id}` : ""}${call ? ` · ${call.name}` : ""}`}
      tone={error ? "border-red-500" : ""}
    >
      {call && (
        <p className="text-xs">
          Answers the call {call.name} on{" "}
          <Link href={ctx.hrefOf(call.n)} className={LINK}>
            line {formatCount(call.n)}
          </Link>
          .
        </p>
      )}
      <PartBody value={p.content} />
    </Fold>
  );
}

function Part({ part, ctx }: { part: unknown; ctx: Context }) {
  if (!part || typeof part !== "object") return <PartBody value={part} />;
  const p = part as Json;
  if (p.type === "text") return <MessageMarkdown text={str(p.text) ?? ""} />;
  if (p.type === "tool_use") return <ToolCall p={p} ctx={ctx} />;
  if (p.type === "tool_result") return <ToolResult p={p} ctx={ctx} />;
  return (
    <Fold summary={`Content part "${str(p.type) ?? "?"}"`}>
      <PartBody value={p} />
    </Fold>
  );
}

function Message({ json, ctx }: { json: Json; ctx: Context }) {
  const role = str(json.role) ?? "?";
  const usage = json.usage as { input_tokens?: number; output_tokens?: number } | undefined;
  const content = json.content ?? json.text;
  const when = str(json.ts) ?? str(json.time);
  const meta = [
    str(json.model),
    usage && typeof usage === "object"
      ? `${formatCount(usage.input_tokens ?? 0)} in / ${formatCount(usage.output_tokens ?? 0)} out tokens`
      : null,
  ].filter(Boolean);
  return (
    <div className={`rounded border-l-4 px-3 py-2 ${ROLE_TONE[role] ?? ROLE_TONE.system}`}>
      <p className="flex flex-wrap gap-x-3 text-xs text-zinc-700 dark:text-zinc-300">
        <span className="font-semibold capitalize">{role}</span>
        <Time iso={when} />
        {meta.map((m) => (
          <span key={m}>{m}</span>
        ))}
      </p>
      {Array.isArray(content) ? (
        content.map((part, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a saved line's parts never move; the position is their identity
          <Part key={i} part={part} ctx={ctx} />
        ))
      ) : typeof content === "string" ? (
        <MessageMarkdown text={content} />
      ) : (
        <p className="text-sm break-words whitespace-pre-wrap">{pretty(content ?? "")}</p>
      )}
    </div>
  );
}

function Event({ json }: { json: Json }) {
  const ts = <Time iso={str(json.ts)} />;
  switch (json.type) {
    case "session":
      return (
        <p className="text-xs text-zinc-700 dark:text-zinc-300">
          Chat started <Time iso={str(json.created)} /> · format {String(json.format ?? "?")} · working folder{" "}
          <span className="font-mono">{str(json.cwd) ?? "none"}</span>
          {str(json.continues) ? ` · continues ${json.continues}` : ""}
        </p>
      );
    case "memory":
      return (
        <Fold
          summary={
            <>
              Memory sent ({json.mode === "note" ? "note" : "full"}) · {ts}
            </>
          }
        >
          <pre className="text-xs break-words whitespace-pre-wrap">{str(json.text) ?? pretty(json.text)}</pre>
        </Fold>
      );
    case "title":
      return (
        <p className="text-sm">
          <span className="font-semibold">Title:</span> {str(json.title)}{" "}
          <span className="text-xs text-zinc-600 dark:text-zinc-400">· {ts}</span>
        </p>
      );
    case "turn_end":
      return (
        <p className="border-t border-dashed border-zinc-400 pt-0.5 text-xs text-zinc-600 dark:text-zinc-400">
          Turn ended · {ts}
        </p>
      );
    default:
      return (
        <div>
          <p className="text-xs text-zinc-700 dark:text-zinc-300">
            Line of type <span className="font-mono">{str(json.type) ?? "(none)"}</span>
            {json.ts ? <> · {ts}</> : ""}
          </p>
          <pre className="font-mono text-xs break-all whitespace-pre-wrap">{JSON.stringify(json, null, 2)}</pre>
        </div>
      );
  }
}

/**
 * One line as part of the conversation: messages by role (their text as
 * Markdown), tool calls folded with their results, memory, titles, turn ends.
 */
export function ConversationLine({
  line,
  href,
  download,
  tools,
  hrefOf,
}: {
  line: LineView;
  href: string;
  download: string;
} & Context) {
  let json: Json | null = null;
  if (!line.error) {
    try {
      json = JSON.parse(line.raw) as Json;
    } catch {
      json = null;
    }
  }
  const isMessage = json && (json.type === "message" || (json.type === undefined && typeof json.role === "string"));
  return (
    <div className="flex gap-3">
      <LineGutter line={line} href={href} />
      <div className="min-w-0 flex-1">
        {!json ? (
          <>
            {isLongLine(line) ? (
              <LongLineNote line={line} download={download} />
            ) : (
              <p className="text-sm font-medium text-red-800 dark:text-red-300">
                Invalid line: {line.error} (byte offset {formatCount(line.offset)})
              </p>
            )}
            <pre className="font-mono text-xs break-all whitespace-pre-wrap">{line.raw.slice(0, 2000)}</pre>
          </>
        ) : isMessage ? (
          <Message json={json} ctx={{ tools, hrefOf }} />
        ) : (
          <Event json={json} />
        )}
      </div>
    </div>
  );
}
