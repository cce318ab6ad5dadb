import { Link } from "@/components/ui/link";
import { chatHref } from "@/lib/routes";
import { pageSource } from "@/server/source/edge";
import { chatPresence } from "@/server/views/provenance";

/**
 * Where a memory the agent saved came from: a link to its chat, or, when the
 * log folder no longer holds that chat, a sentence saying so (no dead link).
 */
export async function MemoryOrigin({ chat }: { chat: string }) {
  const presence = chatPresence(await pageSource(), chat);
  if (presence === "present")
    return (
      <>
        {" "}
        · saved by the agent in{" "}
        <Link href={chatHref(chat)} className="text-blue-800 underline dark:text-blue-300">
          chat <code>{chat}</code>
        </Link>
      </>
    );
  return (
    <>
      {" "}
      · saved by the agent in chat <code>{chat}</code>
      {presence === "gone" ? ", which no longer exists" : " (the log folder could not be searched for it)"}
    </>
  );
}
