/** How a set is named in sentences: `Global` or `Workspace <key>` (null = the global set). */
export function setName(workspace: string | null): string {
  return workspace === null ? "Global" : `Workspace ${workspace}`;
}

/** How a set is named as a page or link title: `Global memories` or `Workspace <key>`. */
export function setLabel(workspace: string | null): string {
  return workspace === null ? "Global memories" : setName(workspace);
}

/** How the chats of a budget are named: `no workspace` or `workspace <key>`, as the contract says. */
export function chatWhere(workspace: string | null): string {
  return workspace === null ? "no workspace" : `workspace ${workspace}`;
}
