import { Fact } from "@/components/ui/fact";
import { Link, SourceAnchor } from "@/components/ui/link";
import { chatHref, downloadHref } from "@/lib/routes";
import type { OutlineView } from "@/server/views/chat-inspector";
import { formatBytes, workingFolderLabel } from "./format";
import { LockPanel } from "./lock-panel";

const LINK = "text-blue-800 underline underline-offset-2 dark:text-blue-300";

/**
 * What stays on screen above the log (no log read): id, working folder, form
 * and the lock, which says when the page is read-only. The rest of the header
 * (generations, downloads) is in `ChatFiles`, inside the page's disclosure, so
 * the log pane keeps the window's height.
 */
export function ChatHeader({
  outline,
  generation,
  bundle = null,
}: {
  outline: OutlineView;
  generation: string;
  /** The support bundle's name while one is shown: its lock is a record, not a live writer. */
  bundle?: string | null;
}) {
  const current = outline.generations.find((g) => g.current);
  return (
    <div className="space-y-2">
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <Fact term="Id" mono>
          {outline.id}
        </Fact>
        <Fact term="Working folder" mono>
          {workingFolderLabel(outline.cwd)}
        </Fact>
        <Fact term="Format">
          {current ? `v${current.format}, ${current.compressed ? "zstd-compressed" : "plain"}` : "no usable log"}
        </Fact>
      </dl>
      <LockPanel id={outline.id} generation={generation} initial={outline.lock} bundle={bundle} />
    </div>
  );
}

/** The chat's files: size as stored, log generations (each viewable, or beside the current one), downloads. */
export function ChatFiles({ outline, generation }: { outline: OutlineView; generation: string }) {
  const current = outline.generations.find((g) => g.current);
  const shown = outline.generations.find((g) => g.name === generation) ?? current;
  return (
    <div className="space-y-3">
      <dl className="text-sm">
        <Fact term="Size as stored">
          <span title={`${shown?.bytes ?? "?"} bytes`}>{formatBytes(shown?.bytes ?? null)}</span>
        </Fact>
      </dl>
      <div>
        <h3 className="text-sm font-medium">Log generations</h3>
        <ul className="mt-1 space-y-1 text-sm">
          {outline.generations.map((g) => (
            <li key={g.name} className="flex flex-wrap items-center gap-x-3">
              <span className="font-mono">{g.name}</span>
              <span>
                v{g.format}, {g.compressed ? "zstd" : "plain"}, {formatBytes(g.bytes)}
                {g.current ? " · current state" : ""}
              </span>
              {g.refused ? (
                <span className="text-red-800 dark:text-red-300">{g.refused}</span>
              ) : (
                <>
                  {g.name !== generation && (
                    <Link className={LINK} href={chatHref(outline.id, { generation: g.name })}>
                      View {g.name}
                    </Link>
                  )}
                  {!g.current && current && (
                    <Link className={LINK} href={chatHref(outline.id, { beside: g.name })}>
                      View {g.name} beside the current one
                    </Link>
                  )}
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
      {shown && !shown.refused && (
        <p className="flex flex-wrap gap-x-4 text-sm">
          <SourceAnchor className={LINK} href={downloadHref(outline.id, "decompressed", shown.name)} download>
            Download the decompressed log
          </SourceAnchor>
          <SourceAnchor className={LINK} href={downloadHref(outline.id, "raw", shown.name)} download>
            Download the raw file ({shown.name})
          </SourceAnchor>
        </p>
      )}
    </div>
  );
}
