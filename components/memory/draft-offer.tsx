"use client";

import { Button } from "@/components/ui/button";
import { Time } from "@/components/ui/time";
import type { StoredDraft } from "./use-stored-draft";

/** Offers back the unsaved draft this browser kept of the memory: restore it into the form, or discard it. */
export function DraftOffer({
  draft,
  onRestore,
  onDiscard,
}: {
  draft: StoredDraft;
  onRestore: () => void;
  onDiscard: () => void;
}) {
  return (
    <section
      aria-label="Unsaved draft"
      className="space-y-2 rounded-md border border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950/40"
    >
      <p>
        This browser kept an unsaved draft of this memory from <Time iso={draft.keptAt} />: “
        {draft.title.trim() || "Untitled"}”{draft.enabled ? "" : " (off)"}.
      </p>
      <div className="flex gap-2">
        <Button variant="primary" onClick={onRestore}>
          Restore draft
        </Button>
        <Button onClick={onDiscard}>Discard</Button>
      </div>
    </section>
  );
}
