import { LimitCounter, limitLevel } from "./limit-counter";
import { chatWhere } from "./names";

/** One chat's estimate with the edited memory in place. */
export interface ChatEstimate {
  workspace: string | null;
  tokens: number;
}

/**
 * The token estimate of what the affected chats would receive: the tightest one
 * as a counter, and every affected chat on demand.
 */
export function TokenEstimate({
  chats,
  limit,
  sent,
}: {
  chats: ChatEstimate[];
  limit: number;
  /** False when the memory is off: the chats receive it not at all. */
  sent: boolean;
}) {
  if (chats.length === 0) return null;
  const tightest = chats.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  return (
    <div className="space-y-1">
      <LimitCounter
        id="tokens-counter"
        label={`Tokens a chat in ${chatWhere(tightest.workspace)} receives`}
        value={tightest.tokens}
        limit={limit}
        unit="tokens"
        detail={
          sent
            ? chats.length > 1
              ? "the fullest of the chats this memory reaches"
              : undefined
            : "this memory is off, so it is not sent"
        }
      />
      {chats.length > 1 && (
        <details className="text-xs">
          <summary className="cursor-pointer text-blue-800 underline dark:text-blue-300">
            Every chat this memory reaches ({chats.length})
          </summary>
          <ul className="mt-1 space-y-0.5 pl-4">
            {chats.map((c) => {
              const level = limitLevel(c.tokens, limit);
              return (
                <li key={c.workspace ?? "none"} className={level === "error" ? "text-red-700 dark:text-red-400" : ""}>
                  A chat in {chatWhere(c.workspace)}: {c.tokens.toLocaleString("en")} / {limit.toLocaleString("en")}{" "}
                  tokens
                  {level === "error" ? " — over the limit" : level === "warning" ? " — near the limit" : ""}
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </div>
  );
}
