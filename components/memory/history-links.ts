/** Links of the history pages (workspace keys URL-encoded; null = the global set). */
export function setPath(workspace: string | null): string {
  return workspace === null ? "/memory/global" : `/memory/workspaces/${encodeURIComponent(workspace)}`;
}

/** The editor of one memory. */
export function editorPath(workspace: string | null, id: string): string {
  return `${setPath(workspace)}/${id}`;
}

/** The history of one memory, optionally opened on a version. */
export function historyPath(workspace: string | null, id: string, version?: string): string {
  return `${editorPath(workspace, id)}/history${version ? `?version=${encodeURIComponent(version)}` : ""}`;
}

/** How a set is named on these pages. */
export function setName(workspace: string | null): string {
  return workspace === null ? "Global" : `Workspace ${workspace}`;
}

/** A moment in the reader's locale and time zone. */
export function localMoment(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}
