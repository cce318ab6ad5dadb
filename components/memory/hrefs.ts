import { chatPlace } from "@/lib/memory/fullest";

/** Where a set or a memory lives in the dashboard (workspace keys are URL-encoded; null = global). */
export function setHref(workspace: string | null): string {
  return workspace === null ? "/memory/global" : `/memory/workspaces/${encodeURIComponent(workspace)}`;
}

/** The editor of one memory. */
export function memoryHref(workspace: string | null, id: string): string {
  return `${setHref(workspace)}/${id}`;
}

/** The editor of a new memory in a set. */
export function newMemoryHref(workspace: string | null): string {
  return `${setHref(workspace)}/new`;
}

/** How a set is named on the page. */
export function setLabel(workspace: string | null): string {
  return workspace === null ? "Global memories" : `Workspace ${workspace}`;
}

/** How the chats of a budget are named: `no workspace` or `workspace <key>`, as the contract says. */
export const chatWhere = chatPlace;

/** A date-time shown compactly in the reader's locale (UTC in the title). */
export function formatMoment(iso: string | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString("en", { dateStyle: "medium", timeStyle: "short" });
}
