import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { type ComponentProps, type ReactNode, Suspense } from "react";
import { ChatDetails, ChatProblems, ChatTitle } from "@/components/chats/chat-details";
import { ChatFiles, ChatHeader } from "@/components/chats/chat-header";
import { ChatMemories } from "@/components/chats/chat-memories";
import { ExportMenu } from "@/components/chats/export-menu";
import { LogViewer } from "@/components/chats/log-viewer";
import { PAGE, pageStart } from "@/components/chats/paging";
import { ChatFix } from "@/components/repairs/chat-fix";
import { Alert } from "@/components/ui/alert";
import { Link } from "@/components/ui/link";
import { PageHeader } from "@/components/ui/page-header";
import { noChatSentence } from "@/lib/chats/chat-words";
import { isOdaError } from "@/lib/errors";
import { parseCopy } from "@/lib/routes";
import { guardPage } from "@/server/access/guard";
import { pageSource } from "@/server/source/edge";
import {
  chatIdParam,
  detailsOnce,
  type LinesView,
  linesFor,
  type OutlineView,
  outlineFor,
} from "@/server/views/chat-inspector";

export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;
type Params = Promise<{ id: string }>;

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

/** The tab's title is the chat's title (its log's last title event), else "Chat <id>". */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await guardPage();
  const id = chatIdParam((await params).id);
  const details = await detailsOnce(await pageSource(), id).catch(() => null);
  return { title: details?.title ?? `Chat ${id}` };
}

/** The first page of lines to show (around `line`), or the refusal sentence. */
async function firstPage(
  id: string,
  generation: string | undefined,
  line: number | null,
  copy?: number,
): Promise<LinesView | { refused: string }> {
  try {
    return await linesFor(await pageSource(), id, pageStart(line ?? 1), PAGE, generation, copy);
  } catch (error) {
    if (isOdaError(error)) return { refused: error.message };
    throw error;
  }
}

function Refusal({ children }: { children: string }) {
  return <Alert tone="error">{children}</Alert>;
}

type ViewerOptions = Omit<ComponentProps<typeof LogViewer>, "generation" | "initialPage" | "label">;

/** One log shown in the page: its heading, then its lines, or the sentence saying why they cannot be read. */
function LogPane({
  heading,
  page,
  labelPrefix = "",
  ...viewer
}: { heading: ReactNode; page: LinesView | { refused: string }; labelPrefix?: string } & ViewerOptions) {
  return (
    <div className="min-w-0 space-y-2">
      <h2 className="text-lg font-semibold">{heading}</h2>
      {"refused" in page ? (
        <Refusal>{page.refused}</Refusal>
      ) : (
        <LogViewer
          generation={page.generation}
          initialPage={page}
          label={`${labelPrefix}${page.generation}`}
          {...viewer}
        />
      )}
    </div>
  );
}

const ALL_CHATS = (
  <Link href="/chats" className="text-sm text-blue-800 underline dark:text-blue-300">
    All chats
  </Link>
);

/** A chat that cannot be opened as one (stored in two places): the refusal, both copies compared, one read-only. */
async function RefusedChat({
  id,
  message,
  duplicate,
  search,
}: {
  id: string;
  message: string;
  duplicate: boolean;
  search: Search;
}) {
  const copy = duplicate ? parseCopy(one(search.copy)) : undefined;
  const page = copy === undefined ? null : await firstPage(id, undefined, null, copy);
  return (
    <div className="space-y-4">
      <PageHeader title={`Chat ${id}`} actions={ALL_CHATS} />
      <Refusal>{message}</Refusal>
      {duplicate && <ChatFix chat={id} problem="duplicate" viewing={copy} />}
      {page && copy !== undefined && (
        <LogPane
          heading={`Copy ${copy + 1}, read-only`}
          page={page}
          id={id}
          labelPrefix={`copy ${copy + 1}, `}
          initialLine={null}
          initialView="raw"
          syncUrl={false}
          canFollow={false}
          copy={copy}
        />
      )}
    </div>
  );
}

/**
 * The inspector: the first screen needs only a folder listing and the first
 * page of lines; the title, details and problems stream in (one read). The
 * details fold into a disclosure so the log pane keeps the window's height.
 */
export default async function ChatPage({ params, searchParams }: { params: Params; searchParams: Promise<Search> }) {
  const id = chatIdParam((await params).id);
  const search = await searchParams;
  const ctx = await pageSource();
  let outline: OutlineView;
  try {
    outline = outlineFor(ctx, id);
  } catch (error) {
    // No such chat is a 404 whose page says the CLI's sentence (./not-found.tsx); any other refusal (a log
    // folder that does not exist, a chat stored in two places) is said as it is.
    if (isOdaError(error) && error.message === noChatSentence(id)) notFound();
    if (!isOdaError(error)) throw error;
    return (
      <RefusedChat id={id} message={error.message} duplicate={error.data?.problem === "duplicate"} search={search} />
    );
  }
  const current = outline.generations.find((g) => g.current);
  const generation = one(search.generation) ?? current?.name ?? outline.generations[0]?.name ?? null;
  const lineParam = Number(one(search.line));
  const line = Number.isInteger(lineParam) && lineParam >= 1 ? lineParam : null;
  const view = one(search.view) === "raw" ? "raw" : "conversation";
  const beside = one(search.beside);
  const [primary, second] = await Promise.all([
    generation ? firstPage(id, generation, line) : Promise.resolve({ refused: "The chat folder holds no log." }),
    beside ? firstPage(id, beside, null) : Promise.resolve(null),
  ]);
  return (
    <div className="space-y-4">
      <PageHeader
        title={
          <Suspense fallback={`Chat ${id}`}>
            <ChatTitle id={id} />
          </Suspense>
        }
        actions={
          <>
            {ALL_CHATS}
            <ExportMenu id={id} generation={generation} />
          </>
        }
      />
      <ChatHeader outline={outline} generation={generation ?? ""} bundle={ctx.bundle?.name ?? null} />
      {outline.generations.some((g) => g.refused) && <ChatFix chat={id} problem="form" />}
      <Suspense fallback={null}>
        <ChatProblems id={id} />
      </Suspense>
      <details className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <summary className="cursor-pointer font-semibold">Details, log generations and downloads</summary>
        <div className="mt-2 space-y-3">
          <Suspense fallback={<p role="status">Reading the chat&apos;s details…</p>}>
            <ChatDetails id={id} />
          </Suspense>
          <ChatFiles outline={outline} generation={generation ?? ""} />
        </div>
      </details>
      <details className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800">
        <summary className="cursor-pointer font-semibold">Memories this chat saved or changed</summary>
        <div className="mt-2">
          <Suspense fallback={<p role="status">Reading the memory history…</p>}>
            <ChatMemories id={id} />
          </Suspense>
        </div>
      </details>
      <div className={beside ? "grid gap-6 xl:grid-cols-2" : ""}>
        <LogPane
          heading={
            <>
              Log <span className="font-mono text-base">{generation}</span>
            </>
          }
          page={primary}
          key={generation}
          id={id}
          initialLine={line}
          initialView={view}
          syncUrl
          canFollow={generation === current?.name}
        />
        {beside && second && (
          <LogPane
            heading={
              <>
                Older generation <span className="font-mono text-base">{beside}</span>
              </>
            }
            page={second}
            id={id}
            initialLine={null}
            initialView={view}
            syncUrl={false}
            canFollow={false}
          />
        )}
      </div>
    </div>
  );
}
