import { promises as fsp } from "node:fs";
import { OdaError } from "../errors";
import { ensureFolderInside } from "../fs";
import { listWorkspaces } from "./listing-cache";
import { checkWorkspace, type WorkspaceKey } from "./names";
import { setSegments } from "./paths";

import { noWorkspaceSet } from "./workspace-set-words";

export { noWorkspaceSet };

/** True when the workspace has a set folder (`memory/workspaces/<key>`) in the home. */
export async function workspaceSetExists(home: string, key: string): Promise<boolean> {
  return (await listWorkspaces(home)).includes(checkWorkspace(key) as NonNullable<WorkspaceKey>);
}

/** Refuses a write into a workspace with no set folder, so only an explicit action creates one. */
export async function requireWorkspaceSet(home: string, workspace: string | null): Promise<void> {
  if (workspace !== null && !(await workspaceSetExists(home, workspace)))
    throw new OdaError("not_found", noWorkspaceSet(workspace));
}

/** Creates a workspace's memory set folder (a person asked for it); nothing happens when it exists. */
export async function createWorkspaceSet(home: string, key: string): Promise<void> {
  const checked = checkWorkspace(key);
  await fsp.mkdir(home, { recursive: true });
  await ensureFolderInside(home, ...setSegments(checked));
}
