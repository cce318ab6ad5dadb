import { queryOptions } from "@tanstack/react-query";
import { readBy } from "@/components/shell/read-query";
import { queryKeys } from "@/lib/query-keys";

/**
 * Every query of the memory pages, in one place: key, read and polling. The
 * pages re-read the disk every few seconds to see changes made outside.
 */
export const memoryQueries = {
  overview: () =>
    queryOptions({ queryKey: queryKeys.memory.overview(), ...readBy("memory.overview", {}), refetchInterval: 2_000 }),
  set: (workspace: string | null) =>
    queryOptions({
      queryKey: queryKeys.memory.set(workspace),
      ...readBy("memory.set", { workspace }),
      refetchInterval: 2_000,
    }),
  /** One memory; the editor re-reads it to notice a change made outside. */
  one: (workspace: string | null, id: string) =>
    queryOptions({
      queryKey: queryKeys.memory.one(workspace, id),
      ...readBy("memory.one", { workspace, id }),
      refetchInterval: 2_000,
    }),
  editorContext: (workspace: string | null, id: string | null) =>
    queryOptions({
      queryKey: queryKeys.memory.editorContext(workspace, id),
      ...readBy("memory.editor-context", { workspace, id }),
      // Read once per editor: the limits and the other memories change rarely, and a save re-checks them.
      staleTime: Number.POSITIVE_INFINITY,
    }),
  settings: () => queryOptions({ queryKey: queryKeys.memory.settings(), ...readBy("memory.settings", {}) }),
  history: (workspace: string | null, id: string) =>
    queryOptions({
      queryKey: queryKeys.memory.history(workspace, id),
      ...readBy("memory.history", { workspace, id }),
      refetchInterval: 3_000,
    }),
  deleted: () =>
    queryOptions({ queryKey: queryKeys.memory.deleted(), ...readBy("memory.deleted", {}), refetchInterval: 5_000 }),
  payload: (workspace: string | null) =>
    queryOptions({
      queryKey: queryKeys.memory.payload(workspace),
      ...readBy("memory.payload", { workspace }),
      refetchInterval: 4_000,
    }),
  /** Memory lint over every set (the Memory health page). */
  health: () =>
    queryOptions({ queryKey: queryKeys.memory.health(), ...readBy("memory.health", {}), refetchInterval: 10_000 }),
  problems: () =>
    queryOptions({ queryKey: queryKeys.memory.problems(), ...readBy("memory.problems", {}), refetchInterval: 4_000 }),
};
