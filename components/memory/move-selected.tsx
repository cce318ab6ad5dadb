"use client";

import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { WriteButton } from "@/components/ui/write-button";
import { setName } from "./names";
import { memoryQueries } from "./queries";

const GLOBAL = "global";
const toValue = (w: string | null) => (w === null ? GLOBAL : `w:${w}`);
const fromValue = (v: string) => (v === GLOBAL ? null : v.slice(2));

/**
 * "Move to…" for a set's bulk selection: the target set is chosen first, the
 * change is shown (which memories go from where to where) and made only once
 * confirmed; the toast's one Undo puts them all back.
 */
export function MoveSelected({
  workspace,
  chosen,
  disabled,
  onMove,
}: {
  workspace: string | null;
  chosen: { id: string; title: string }[];
  disabled: boolean;
  onMove: (to: string | null) => void;
}) {
  const overview = useQuery(memoryQueries.overview());
  const [target, setTarget] = useState("");
  const [open, setOpen] = useState(false);
  const selectId = useId();
  const others = (overview.data?.sets ?? []).map((s) => s.workspace).filter((w) => w !== workspace);
  const to = target ? fromValue(target) : undefined;
  const count = `${chosen.length} ${chosen.length === 1 ? "memory" : "memories"}`;
  return (
    <>
      <label htmlFor={selectId}>Move selected to</label>
      <select
        id={selectId}
        value={target}
        onChange={(e) => setTarget(e.target.value)}
        className="rounded-md border border-zinc-300 bg-white px-2 py-1 dark:border-zinc-700 dark:bg-zinc-900"
      >
        <option value="">Choose a set…</option>
        {others.map((w) => (
          <option key={toValue(w)} value={toValue(w)}>
            {setName(w)}
          </option>
        ))}
      </select>
      <WriteButton disabled={disabled || !chosen.length || to === undefined} onClick={() => setOpen(true)}>
        Move to…
      </WriteButton>
      <ConfirmDialog
        open={open && to !== undefined}
        title={`Move to ${to === undefined ? "" : setName(to)}`}
        confirmLabel={`Move ${count}`}
        onCancel={() => setOpen(false)}
        onConfirm={() => {
          setOpen(false);
          if (to !== undefined) onMove(to);
        }}
      >
        <p>
          Moves {count} from {setName(workspace)} to {to === undefined ? "" : setName(to)}:
        </p>
        <ul className="list-disc pl-5">
          {chosen.map((m) => (
            <li key={m.id}>
              “{m.title}” ({m.id})
            </li>
          ))}
        </ul>
        <p>
          Each leaves this set as a deletion (its history stays, under Recently deleted) and is written there as a new
          memory, under the same id unless that id is taken there.
        </p>
        <p>
          All or nothing: if one would break a limit or the token budget of {to === undefined ? "" : setName(to)}, none
          moves and every reason is shown. One Undo puts every one of them back.
        </p>
      </ConfirmDialog>
    </>
  );
}
