/**
 * Every TanStack Query key of the dashboard, in one place, so a mutation
 * invalidates exactly what it changed. Keys are plain data (no functions).
 */
export const queryKeys = {
  memory: {
    all: ["memory"] as const,
    overview: () => ["memory", "overview"] as const,
    set: (workspace: string | null) => ["memory", "set", workspace ?? "global"] as const,
    one: (workspace: string | null, id: string) => ["memory", "one", workspace ?? "global", id] as const,
    history: (workspace: string | null, id: string) => ["memory", "history", workspace ?? "global", id] as const,
    deleted: () => ["memory", "deleted"] as const,
    payload: (workspace: string | null) => ["memory", "payload", workspace ?? "none"] as const,
    problems: () => ["memory", "problems"] as const,
    health: () => ["memory", "health"] as const,
    settings: () => ["memory", "settings"] as const,
    /** The editor's limits and other memories' payload pieces (`null` id: a new memory). */
    editorContext: (workspace: string | null, id: string | null) =>
      ["memory", "editor-context", workspace ?? "global", id ?? "new"] as const,
  },
  sessions: {
    all: ["sessions"] as const,
    /** The chat list's stream (over a built index, its verdict; the rows come through `window`). */
    list: () => ["sessions", "list"] as const,
    /** A window of the chat list read from the index (`ask`: its listing, sort, grouping and filters). */
    window: (ask: unknown, page: number) => ["sessions", "window", ask, page] as const,
    windows: () => ["sessions", "window"] as const,
    chat: (id: string) => ["sessions", "chat", id] as const,
    /** `copy`: one copy of a chat stored in two places (0-based). */
    lines: (id: string, generation: string | null, from: number, copy?: number) =>
      ["sessions", "lines", id, generation ?? "current", from, copy ?? "chat"] as const,
    /** A log's line count, tail and the chat's lock (polled in follow mode). */
    status: (id: string, generation: string | null, copy?: number) =>
      ["sessions", "status", id, generation ?? "current", copy ?? "chat"] as const,
    /** Pages of a log filtered with context (`params`: the filter's URL parameters). */
    filter: (id: string, generation: string | null, params: Record<string, string>) =>
      ["sessions", "filter", id, generation ?? "current", params] as const,
    /** A chat's marks and notes. */
    notes: (id: string) => ["sessions", "notes", id] as const,
    /** The tools a log calls, with counts. */
    tools: (id: string, generation: string | null) => ["sessions", "tools", id, generation ?? "current"] as const,
  },
  search: {
    all: ["search"] as const,
    query: (q: string, filters: Record<string, string>) => ["search", q, filters] as const,
    status: () => ["search", "status"] as const,
    folders: () => ["search", "folders"] as const,
  },
  repairs: {
    all: ["repairs"] as const,
    overview: () => ["repairs", "overview"] as const,
    /** The newest conversion job alone (cheap: one small file), polled while it runs. */
    job: () => ["repairs", "job"] as const,
  },
};
