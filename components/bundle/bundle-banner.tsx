import { Link } from "@/components/ui/link";
import { Time } from "@/components/ui/time";
import { READ_ONLY_REASON_ID } from "@/components/ui/write-button";
import { BUNDLES_PAGE, supportPages } from "@/lib/routes";
import type { OpenedBundleInfo } from "@/server/source/context";
import { CloseBundle } from "./close-bundle";

/** Names the bundle every page of its source shows and when it was made; the doctor report is one click away. */
export function BundleBanner({ id, bundle, readOnly }: { id: string; bundle: OpenedBundleInfo; readOnly: string }) {
  return (
    <div
      role="note"
      aria-label="Support bundle"
      className="flex flex-wrap items-center justify-center gap-x-4 gap-y-1 bg-violet-800 px-4 py-1.5 text-sm text-white"
    >
      <span>
        Support bundle <strong>{bundle.name}</strong>, created <Time iso={bundle.manifest.createdAt} />.
      </span>
      {/* Every control that would write is disabled and points here (components/ui/write-button.tsx). */}
      <span id={READ_ONLY_REASON_ID}>{readOnly}</span>
      <Link href={supportPages.doctor} className="font-semibold underline">
        Doctor report
      </Link>
      <Link href={BUNDLES_PAGE} className="underline">
        Other bundles
      </Link>
      <CloseBundle id={id} />
    </div>
  );
}
