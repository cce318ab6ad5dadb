import Link from "next/link";
import { Time } from "@/components/ui/time";
import { supportPages } from "@/lib/routes";
import type { ActiveBundle } from "@/server/bundle";
import { CloseBundle } from "./close-bundle";

/** Names the bundle every page shows and when it was made; the doctor report is one click away. */
export function BundleBanner({ bundle }: { bundle: ActiveBundle }) {
  return (
    <div
      role="note"
      aria-label="Support bundle"
      className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 bg-violet-800 px-4 py-1.5 text-sm text-white"
    >
      <span>
        Support bundle <strong>{bundle.name}</strong>, created <Time iso={bundle.manifest.createdAt} /> — read-only:
        nothing in it can be changed.
      </span>
      <Link href={supportPages.doctor} className="font-semibold underline">
        Doctor report
      </Link>
      <CloseBundle />
    </div>
  );
}
