"use client";

import { createContext, type ReactNode, useContext } from "react";
import {
  deleteMemoryAction,
  restoreDeletedAction,
  restoreVersionAction,
  undoBulkAction,
} from "@/server/actions/memory";

/**
 * The writes a toast's Undo runs. A toast outlives the page that made it (a
 * delete returns to the set, and its Undo is clicked there), and Next serves a
 * server action only on the pages whose client code refers to it: from any
 * other page the call is forwarded to a route path, which the proxy's source
 * rewrite does not know, and fails as "Server Action unavailable". Provided by
 * the dashboard's layout, these are served on every page.
 */
const UNDO_ACTIONS = Object.freeze({
  deleteMemory: deleteMemoryAction,
  restoreDeleted: restoreDeletedAction,
  restoreVersion: restoreVersionAction,
  undoBulk: undoBulkAction,
});

const UndoActionsContext = createContext(UNDO_ACTIONS);

/** Puts the Undo writes in the layout (see `UNDO_ACTIONS`). */
export function UndoActionsProvider({ children }: { children: ReactNode }) {
  return <UndoActionsContext.Provider value={UNDO_ACTIONS}>{children}</UndoActionsContext.Provider>;
}

/** The writes an Undo may run after its page is gone: use these, never the action imported by the page. */
export function useUndoActions(): typeof UNDO_ACTIONS {
  return useContext(UndoActionsContext);
}
