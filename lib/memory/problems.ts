import { isOdaError } from "../errors";
import { listSet } from "./list-set";
import { listWorkspaces } from "./listing-cache";
import { readSettings } from "./settings";

/** One problem under the Oda home: the file's path relative to the home, and the sentence. */
export interface HomeProblem {
  /** null for settings problems and set folders that cannot be read. */
  id: string | null;
  workspace: string | null;
  path: string;
  message: string;
  line?: number;
  /** The system would not give the file: it is left out. */
  unreadable?: true;
}

/** Every memory problem of every set, and every settings problem, with paths relative to the home. */
export async function listAllProblems(home: string): Promise<HomeProblem[]> {
  const settings = await readSettings(home);
  const out: HomeProblem[] = settings.problems.map((p) => ({
    id: null,
    workspace: null,
    path: p.path,
    message: p.message,
  }));
  const sets: (string | null)[] = [null, ...(await listWorkspaces(home))];
  for (const workspace of sets) {
    try {
      const set = await listSet(home, workspace, { limits: settings.limits });
      for (const p of set.problems) out.push({ ...p, workspace });
    } catch (error) {
      const path = workspace === null ? "memory/global" : `memory/workspaces/${workspace}`;
      out.push({ id: null, workspace, path, message: isOdaError(error) ? error.message : String(error) });
    }
  }
  return out;
}
