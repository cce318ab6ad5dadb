import "server-only";
import { cache } from "react";
import { z } from "zod";
import { type ChatDetails, outlineChat, readChatLock, type TailReport } from "@/lib/chats";
import type { LinesView, LineView, LockView, StatusView } from "@/lib/chats/views";
import { errorBody, isOdaError } from "@/lib/errors";
import type { LockStatus } from "@/lib/fs/lock";
import { systemErrorAsOda } from "@/lib/fs/system-error";
import { parseCopy } from "@/lib/routes";
import { guardRoute } from "@/server/access/guard";
import { requireLogFolder, type SourceContext } from "@/server/source/context";
import { routeSource } from "@/server/source/edge";
import { type ChatProblem, toRow } from "@/server/views/chat-list";
import { inWorker } from "@/server/workers/log-worker";

export type { LinesView, LineView, LockView, StatusView };

/**
 * The inspector's reads, as plain serialisable data. Ids are data: every call
 * finds the chat through `lib/chats` (`locateChat`), never by joining a path.
 */

function lockView(lock: LockStatus): LockView {
  const { raw: _raw, ...rest } = lock;
  return rest;
}

export interface GenerationView {
  name: string;
  format: number;
  compressed: boolean;
  bytes: number;
  current: boolean;
  refused: string | null;
  path: string;
}

/** What the page shows at once, without reading a log. */
export interface OutlineView {
  id: string;
  folder: string;
  cwd: string | null;
  generations: GenerationView[];
  lock: LockView;
}

export function outlineFor(ctx: SourceContext, id: string): OutlineView {
  const { logDir, compress } = requireLogFolder(ctx);
  const o = outlineChat(logDir, id, { compress });
  return {
    id,
    folder: o.location.folder,
    cwd: o.location.cwd,
    generations: o.generations.map(({ name, format, compressed, bytes, current, refused, path }) => ({
      name,
      format,
      compressed,
      bytes,
      current,
      refused,
      path,
    })),
    lock: lockView(o.lock),
  };
}

/**
 * Logs up to this size (as stored) are read whole for the inspector's details,
 * so every line is checked (on the decode worker, under the log limits, so a
 * small bomb costs the server neither memory nor a blocked event loop); a larger one is served from its checkpoint (when it
 * fits the log) so that the first screen of a huge log is not held up by a full
 * decode. Its lines are still checked as the viewer pages through them.
 */
const READ_WHOLE_MAX_BYTES = 8 * 1024 * 1024;

/** The chat's details: read whole for an ordinary log, from the checkpoint for a huge one. */
export interface DetailsView extends ChatDetails {
  created: string | null;
  continues: string | null;
  cacheState: string;
  cacheReason: string;
  behindBytes: number;
  /** Known once the log has been read whole (here or by the viewer's line index). */
  lines: number | null;
  decompressedBytes: number | null;
  tail: TailReport | null;
  problems: ChatProblem[];
  /** True when the whole log was read for these details. */
  readWhole: boolean;
}

export async function detailsFor(
  ctx: SourceContext,
  id: string,
  options: { readWholeMaxBytes?: number } = {},
): Promise<DetailsView> {
  const { logDir, compress } = requireLogFolder(ctx);
  const read = await inWorker("chatDetails", logDir, id, compress, options.readWholeMaxBytes ?? READ_WHOLE_MAX_BYTES);
  const chat = read.chat;
  return {
    title: chat.title,
    created: chat.created,
    continues: chat.continues,
    firstActivity: chat.firstActivity,
    lastActivity: chat.lastActivity,
    messages: chat.messages,
    models: chat.models,
    inputTokens: chat.inputTokens,
    outputTokens: chat.outputTokens,
    cacheState: chat.cacheState,
    cacheReason: chat.cacheReason,
    behindBytes: chat.behindBytes,
    lines: read.lines,
    decompressedBytes: read.decompressedBytes,
    tail: chat.tail,
    problems: toRow(chat).problems,
    readWhole: read.readWhole,
  };
}

/**
 * `detailsFor` once per request: the page's heading, its document title, the
 * details and the problems all show the same read of the log.
 */
export const detailsOnce = cache((ctx: SourceContext, id: string) => detailsFor(ctx, id));

export async function linesFor(
  ctx: SourceContext,
  id: string,
  from: number,
  count: number,
  generation?: string,
  copy?: number,
): Promise<LinesView> {
  const { logDir, compress } = requireLogFolder(ctx);
  const read = await inWorker("readLines", logDir, id, { from, count, generation, compress, copy });
  return {
    lines: read.lines.map((l) => {
      const line: LineView = { n: l.n, offset: l.offset, raw: l.raw };
      if (l.error) line.error = l.error;
      if (l.length !== undefined) line.length = l.length;
      return line;
    }),
    total: read.total,
    tail: read.tail,
    error: read.error,
    generation: read.generation,
  };
}

export async function statusFor(
  ctx: SourceContext,
  id: string,
  generation?: string,
  copy?: number,
): Promise<StatusView> {
  const { logDir, compress } = requireLogFolder(ctx);
  const index = await inWorker("indexChat", logDir, id, { compress, generation, copy });
  return {
    lines: index.lines,
    decompressedBytes: index.decodedBytes,
    bytes: index.size,
    tail: index.tail,
    error: index.error,
    lock: lockView(readChatLock(logDir, id, copy)),
  };
}

const STATUS: Record<string, number> = {
  not_found: 404,
  refused: 409,
  conflict: 409,
  unusable: 422,
  bad_input: 400,
  locked: 423,
};

/** A route handler's answer for an error: the exact sentence for an `OdaError`, a generic one otherwise. */
export function errorResponse(thrown: unknown): Response {
  const error = systemErrorAsOda(thrown);
  if (!isOdaError(error)) console.error("oda-admin: unexpected error in a chat route:", error);
  const body = errorBody(error, "The chat could not be read; run oda-admin doctor.");
  return Response.json({ error: body }, { status: isOdaError(error) ? (STATUS[error.code] ?? 400) : 500 });
}

/**
 * The chat id from a route's `[id]` segment. Links always encode the id
 * (`encodeURIComponent`); decoding is tried once and the segment is kept as
 * it is when it does not decode (Next may hand it over decoded already).
 */
export function chatIdParam(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The chat id of a route handler under `/chats/<id>/…`, read from the request's
 * own path: route handlers receive `[id]` already decoded while pages receive
 * it encoded, so decoding the raw segment once is the one unambiguous way.
 */
export function chatIdFromRequest(request: Request): string {
  // Under a bundle's address (`/b/<source>/chats/<id>/…`) when the rewritten path is not the one handed over.
  const path = new URL(request.url).pathname.replace(/^\/b\/[^/]+(?=\/)/, "");
  const segment = path.split("/")[2] ?? "";
  return chatIdParam(segment);
}

/** `?copy=` in a route's query: absent, or a copy's number as `parseCopy` reads it (else the request is refused). */
export const ZCopyParam = z
  .string()
  .optional()
  .refine((value) => value === undefined || parseCopy(value) !== undefined)
  .transform((value) => parseCopy(value));

/**
 * The body of every chat route handler, as `runAction` is for server actions:
 * the access guard, the source and the chat id from the path, zod `safeParse` of the query,
 * then `body`, with failures mapped by `errorResponse`.
 */
export async function runChatRoute<S extends z.ZodType>(
  request: Request,
  schema: S,
  body: (ctx: SourceContext, id: string, query: z.infer<S>) => Promise<Response>,
): Promise<Response> {
  const refused = await guardRoute(request);
  if (refused) return refused;
  const query = schema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) {
    return Response.json({ error: { code: "bad_input", message: "The request was not valid." } }, { status: 400 });
  }
  try {
    return await body(routeSource(request), chatIdFromRequest(request), query.data);
  } catch (error) {
    return errorResponse(error);
  }
}
