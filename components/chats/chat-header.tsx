import Link from "next/link";
import { chatHref, downloadHref } from "@/lib/routes";
import type { OutlineView } from "@/server/chat-inspector";
import { formatBytes, workingFolderLabel } from "./format";
import { LockPanel } from "./lock-panel";

const LINK = "text-blue-800 underline underline-offset-2 dark:text-blue-300";

/** The inspector's first screen: identity, generations with sizes, downloads and the lock (no log read). */
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
  const shown = outline.generations.find((g) => g.name === generation) ?? current;
  return (
    <div className="space-y-3">
      <dl className="grid gap-1 text-sm sm:grid-cols-2">
        <div className="flex flex-wrap gap-x-2">
          <dt className="font-medium">Id:</dt>
          <dd className="font-mono break-all">{outline.id}</dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="font-medium">Working folder:</dt>
          <dd className="font-mono break-all">{workingFolderLabel(outline.cwd)}</dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="font-medium">Format:</dt>
          <dd>
            {current ? `v${current.format}, ${current.compressed ? "zstd-compressed" : "plain"}` : "no usable log"}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="font-medium">Size as stored:</dt>
          <dd title={`${shown?.bytes ?? "?"} bytes`}>{formatBytes(shown?.bytes ?? null)}</dd>
        </div>
      </dl>
      <div>
        <h2 className="text-sm font-medium">Log generations</h2>
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
          <a className={LINK} href={downloadHref(outline.id, "decompressed", shown.name)} download>
            Download the decompressed log
          </a>
          <a className={LINK} href={downloadHref(outline.id, "raw", shown.name)} download>
            Download the raw file ({shown.name})
          </a>
        </p>
      )}
      <LockPanel id={outline.id} generation={generation} initial={outline.lock} bundle={bundle} />
    </div>
  );
}
