import { setName } from "@/components/memory/names";
import { Link } from "@/components/ui/link";
import { historyHref, memoryHref } from "@/lib/routes";
import { pageSource } from "@/server/source/edge";
import { memoriesOfChat } from "@/server/views/provenance";

/** `20261129T182408123Z-chat-2` as `2026-11-29 18:24:08 UTC`, the moment a version was saved. */
function versionMoment(name: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})/.exec(name);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]} UTC` : name;
}

const LINK = "text-blue-800 underline dark:text-blue-300";

/**
 * The memories this chat saved or changed, from the history's chat versions:
 * each links to its editor (or says it is deleted) and to every version the
 * chat wrote, on the memory's history page.
 */
export async function ChatMemories({ id }: { id: string }) {
  const memories = await memoriesOfChat(await pageSource(), id).catch(() => null);
  if (memories === null) return <p>The memories this chat saved could not be read.</p>;
  if (!memories.length) return <p>This chat saved or changed no memory.</p>;
  return (
    <ul className="space-y-2">
      {memories.map((m) => (
        <li key={`${m.workspace ?? ""}/${m.id}`}>
          {m.deleted ? (
            <span>{m.title} (deleted)</span>
          ) : (
            <Link href={memoryHref(m.workspace, m.id)} className={LINK}>
              {m.title}
            </Link>
          )}{" "}
          <span className="text-sm text-zinc-700 dark:text-zinc-300">
            in {setName(m.workspace)}
            {m.current ? " · its current text is this chat's" : ""}
          </span>
          {m.versions.length > 0 && (
            <ul className="ml-4 list-disc pl-4 text-sm">
              {m.versions.map((v) => (
                <li key={v}>
                  <Link
                    href={historyHref(m.workspace, m.id, v)}
                    className={LINK}
                    aria-label={`Version of ${versionMoment(v)} of ${m.title}`}
                  >
                    Version of {versionMoment(v)}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
