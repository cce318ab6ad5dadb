import "server-only";
import { decodeName, NO_CWD_GROUP, parseGroupName } from "@/lib/chats/names";
import type { DoctorReport } from "@/lib/doctor";
import type { Repairable } from "@/lib/repair";
import { chatHref, memoryHref, memoryPages, setHref } from "@/lib/routes";

/** A link the Doctor page offers beside a problem. */
export interface DoctorLink {
  label: string;
  href: string;
}

/** One problem as the Doctor page shows it: where, in words (folder names decoded), and where to go about it. */
export interface DoctorItem {
  /** The path as the report has it (relative to its root, folder names encoded), for the hover and the CLI. */
  path: string;
  /** The place in words: "/home/ana/Übersetzungen › chat c-7 › session.v4.jsonl.zstd". */
  place: string;
  line?: number;
  message: string;
  links: DoctorLink[];
}

/** One section of the page: "memory" or "chat logs". */
export interface DoctorSectionView {
  name: string;
  items: DoctorItem[];
}

/** The Repairs page: one address for every repair (it lists them all, each with its preview). */
const REPAIRS = "/repairs";

/** A memory problem: the editor of that memory (its file, fixed in place), its set, or the settings. */
function memoryItem(path: string, repairable: Set<string>): Pick<DoctorItem, "place" | "links"> {
  const parts = path.split("/");
  if (path === "settings.json")
    return {
      place: "Settings (settings.json)",
      links: [{ label: "Open the memory settings", href: memoryPages.settings }],
    };
  const [root, kind, ...rest] = parts;
  if (root !== "memory") return { place: path, links: [] };
  const workspace = kind === "global" ? null : kind === "workspaces" ? (rest.shift() ?? null) : undefined;
  if (workspace === undefined || (kind === "workspaces" && workspace === null)) return { place: path, links: [] };
  const set = workspace === null ? "Global set" : `Workspace ${workspace}`;
  const id = rest[0];
  if (id === undefined)
    return { place: set, links: [{ label: `Open the ${set.toLowerCase()}`, href: setHref(workspace) }] };
  const links = [{ label: `Open memory ${id}`, href: memoryHref(workspace, id) }];
  const subject = workspace === null ? `global/${id}` : `workspaces/${workspace}/${id}`;
  if (repairable.has(`memory:${subject}`)) links.push({ label: `Repair memory ${id}`, href: REPAIRS });
  return { place: `${set} › memory ${id}`, links };
}

/** A chat log problem: the folder names decoded, the chat's page, and Repairs when a repair is offered for it. */
function chatItem(path: string, repairable: Set<string>): Pick<DoctorItem, "place" | "links"> {
  const [group, chatFolder, ...rest] = path.split("/");
  if (group === undefined || path === ".") return { place: "The log folder", links: [] };
  const parsed = parseGroupName(group);
  const folder = parsed === null ? group : parsed.cwd === null ? `${NO_CWD_GROUP} (no working folder)` : parsed.cwd;
  if (chatFolder === undefined) return { place: folder, links: [] };
  const id = decodeName(chatFolder);
  if (id === null) return { place: [folder, chatFolder, ...rest].join(" › "), links: [] };
  const links = [{ label: `Open chat ${id}`, href: chatHref(id) }];
  if (repairable.has(`form:${id}`) || repairable.has(`duplicate:${id}`))
    links.push({ label: `Repair chat ${id}`, href: REPAIRS });
  return { place: [folder, `chat ${id}`, ...rest].join(" › "), links };
}

/**
 * The doctor report as the Doctor page shows it. `repairable` is what the
 * Repairs page offers (null when repairs cannot be made here, as in a bundle).
 */
export function doctorView(report: DoctorReport, repairable: Repairable[] | null): DoctorSectionView[] {
  const offered = new Set((repairable ?? []).map((r) => r.id));
  return report.sections.map((s) => ({
    name: s.name,
    items: s.problems.map((p) => ({
      path: p.path,
      message: p.message,
      ...(p.line === undefined ? {} : { line: p.line }),
      ...(s.name === "memory" ? memoryItem(p.path, offered) : chatItem(p.path, offered)),
    })),
  }));
}
