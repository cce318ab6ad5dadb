import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ChatDetails } from "@/components/chats/chat-details";
import { ChatHeader } from "@/components/chats/chat-header";
import { LogViewer } from "@/components/chats/log-viewer";
import { PAGE, pageStart } from "@/components/chats/paging";
import { ChatFix } from "@/components/repairs/chat-fix";
import { Alert } from "@/components/ui/alert";
import { PageHeader } from "@/components/ui/page-header";
import { isOdaError } from "@/lib/errors";
import { activeBundle } from "@/server/bundle";
import { chatIdParam, type LinesView, linesFor, type OutlineView, outlineFor } from "@/server/chat-inspector";

export const metadata: Metadata = { title: "Chat" };
export const dynamic = "force-dynamic";

type Search = Record<string, string | string[] | undefined>;

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value ? value : undefined;
}

/** The first page of lines to show (around `line`), or the refusal sentence. */
async function firstPage(
  id: string,
  generation: string,
  line: number | null,
): Promise<LinesView | { refused: string }> {
  try {
    return await linesFor(id, pageStart(line ?? 1), PAGE, generation);
  } catch (error) {
    if (isOdaError(error)) return { refused: error.message };
    throw error;
  }
}

function Refusal({ children }: { children: string }) {
  return <Alert tone="error">{children}</Alert>;
}

/** The inspector: the first screen needs only a folder listing and the first page of lines; details stream in. */
export default async function ChatPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Search>;
}) {
  const id = chatIdParam((await params).id);
  const search = await searchParams;
  let outline: OutlineView;
  try {
    outline = outlineFor(id);
  } catch (error) {
    if (isOdaError(error) && error.code === "not_found") notFound();
    if (!isOdaError(error)) throw error;
    return (
      <>
        <PageHeader title={`Chat ${id}`} />
        <Refusal>{error.message}</Refusal>
        {error.data?.problem === "duplicate" && <ChatFix chat={id} problem="duplicate" />}
      </>
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
    <div className="space-y-6">
      <PageHeader
        title={
          <>
            Chat <span className="font-mono break-all">{id}</span>
          </>
        }
        actions={
          <Link href="/chats" className="text-sm text-blue-800 underline dark:text-blue-300">
            All chats
          </Link>
        }
      />
      <ChatHeader outline={outline} generation={generation ?? ""} bundle={activeBundle()?.name ?? null} />
      {outline.generations.some((g) => g.refused) && <ChatFix chat={id} problem="form" />}
      <section aria-labelledby="details-heading" className="space-y-2">
        <h2 id="details-heading" className="text-lg font-semibold">
          Details
        </h2>
        <Suspense fallback={<p role="status">Reading the chat&apos;s details…</p>}>
          <ChatDetails id={id} />
        </Suspense>
      </section>
      <div className={beside ? "grid gap-6 xl:grid-cols-2" : ""}>
        <div className="min-w-0 space-y-2">
          <h2 className="text-lg font-semibold">
            Log <span className="font-mono text-base">{generation}</span>
          </h2>
          {"refused" in primary ? (
            <Refusal>{primary.refused}</Refusal>
          ) : (
            <LogViewer
              key={generation}
              id={id}
              generation={primary.generation}
              label={primary.generation}
              initialPage={primary}
              initialLine={line}
              initialView={view}
              syncUrl
              canFollow={generation === current?.name}
            />
          )}
        </div>
        {beside && second && (
          <div className="min-w-0 space-y-2">
            <h2 className="text-lg font-semibold">
              Older generation <span className="font-mono text-base">{beside}</span>
            </h2>
            {"refused" in second ? (
              <Refusal>{second.refused}</Refusal>
            ) : (
              <LogViewer
                id={id}
                generation={second.generation}
                label={second.generation}
                initialPage={second}
                initialLine={null}
                initialView={view}
                syncUrl={false}
                canFollow={false}
              />
            )}
          </div>
        )}
      </div>
    </div>
  );
}
