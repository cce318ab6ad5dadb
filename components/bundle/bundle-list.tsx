import NextLink from "next/link";
import { formatBytes } from "@/components/chats/format";
import { Time } from "@/components/ui/time";
import { CloseBundle } from "./close-bundle";

/** One opened bundle as the Bundles page lists it. */
export interface BundleRow {
  id: string;
  /** Its pages' address, `/b/<id>`. */
  href: string;
  name: string;
  createdAt: string;
  openedAt: string;
  /** The Oda Admin version that made it (the bundle names no machine: host names are redacted). */
  madeBy: string;
  bytes: number;
  files: number;
  problems: number;
}

const LINK = "text-blue-800 underline dark:text-blue-300";

/**
 * The live installation and every opened bundle, each a link to its own
 * pages. Next's own `Link`: these addresses leave the page's source on purpose.
 */
export function BundleList({ bundles }: { bundles: BundleRow[] }) {
  return (
    <section aria-labelledby="opened-heading" className="space-y-3">
      <h2 id="opened-heading" className="text-xl font-semibold">
        Open in this dashboard
      </h2>
      <ul
        aria-label="Open sources"
        className="divide-y divide-zinc-200 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        <li className="p-3">
          <NextLink href="/" className={`${LINK} font-medium`}>
            Live installation
          </NextLink>{" "}
          <span className="text-sm text-zinc-700 dark:text-zinc-300">
            — this computer&apos;s Oda home and log folder
          </span>
        </li>
        {bundles.map((b) => (
          <li key={b.id} aria-label={b.name} className="flex flex-wrap items-baseline gap-x-4 gap-y-1 p-3">
            <NextLink href={b.href} className={`${LINK} font-medium`}>
              {b.name}
            </NextLink>
            <span className="text-sm">
              made <Time iso={b.createdAt} /> by Oda Admin {b.madeBy}
            </span>
            <span className="text-sm">
              {formatBytes(b.bytes)} in {b.files.toLocaleString("en")} files
            </span>
            <span className="text-sm">
              {b.problems === 0
                ? "no problems"
                : `${b.problems.toLocaleString("en")} problem${b.problems === 1 ? "" : "s"}`}
            </span>
            <span className="text-sm text-zinc-700 dark:text-zinc-300">
              opened <Time iso={b.openedAt} />
            </span>
            <CloseBundle id={b.id} label={`Close ${b.name}`} />
          </li>
        ))}
      </ul>
      {bundles.length === 0 && <p>No bundle is open.</p>}
    </section>
  );
}
