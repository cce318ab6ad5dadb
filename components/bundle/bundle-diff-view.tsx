import { DiffView } from "@/components/memory/diff-view";
import { Time } from "@/components/ui/time";
import type { BundleDiff, ChatChange, ChatRef, DiffProblem, MemoryRef } from "@/lib/bundle/diff";
import { plural } from "@/lib/words";

/**
 * What changed between two bundles of one installation, section by section:
 * chats, problems, memories, settings. Each section says its counts first, so
 * "nothing changed" reads as plainly as a change.
 */

const n = (v: number) => v.toLocaleString("en");
const LIST =
  "divide-y divide-zinc-200 rounded-md border border-zinc-200 text-sm dark:divide-zinc-800 dark:border-zinc-800";

function Section({
  id,
  title,
  summary,
  children,
}: {
  id: string;
  title: string;
  summary: string;
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-2">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      <p>{summary}</p>
      {children}
    </section>
  );
}

const chatName = (c: { id: string; title: string | null }) => (c.title ? `${c.title} (${c.id})` : c.id);

function ChatList({ label, chats, mark }: { label: string; chats: ChatRef[]; mark: string }) {
  if (!chats.length) return null;
  return (
    <ul aria-label={label} className={LIST}>
      {chats.map((c) => (
        <li key={`${c.id}/${c.folder}`} className="p-2">
          <span aria-hidden="true" className="mr-2 font-mono font-bold">
            {mark}
          </span>
          {chatName(c)}: {plural(c.messages, "message")}, {n(c.bytes)} bytes
        </li>
      ))}
    </ul>
  );
}

function ChangedChats({ label, chats }: { label: string; chats: ChatChange[] }) {
  if (!chats.length) return null;
  return (
    <ul aria-label={label} className={LIST}>
      {chats.map((c) => (
        <li key={`${c.id}/${c.folder}`} className="p-2">
          {chatName(c)}: {n(c.before.messages)} → {n(c.after.messages)} messages, {n(c.before.bytes)} →{" "}
          {n(c.after.bytes)} bytes, {n(c.before.inputTokens + c.before.outputTokens)} →{" "}
          {n(c.after.inputTokens + c.after.outputTokens)} tokens
        </li>
      ))}
    </ul>
  );
}

function Problems({ label, problems }: { label: string; problems: DiffProblem[] }) {
  if (!problems.length) return null;
  return (
    <ul aria-label={label} className={LIST}>
      {problems.map((p, i) => (
        // The same sentence can stand twice on one path: the position keeps the keys apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list rendered once
        <li key={i} className="p-2">
          <span className="font-mono text-xs break-all">
            {p.section}: {p.path}
            {p.line === undefined ? "" : `, line ${p.line}`}
          </span>
          <br />
          {p.message}
        </li>
      ))}
    </ul>
  );
}

const memoryName = (m: MemoryRef) =>
  `${m.title} (${m.set === "global" ? "global set" : `workspace ${m.set}`}, ${m.id})`;

/** The comparison of bundle `before` with bundle `after`. */
export function BundleDiffView({ diff, before, after }: { diff: BundleDiff; before: string; after: string }) {
  const c = diff.chats;
  const p = diff.problems;
  const m = diff.memories;
  return (
    <div className="space-y-8">
      <p>
        Before: <strong>{before}</strong>, made <Time iso={diff.a.createdAt} />. After: <strong>{after}</strong>, made{" "}
        <Time iso={diff.b.createdAt} />.
      </p>
      {diff.notes.map((note) => (
        <p key={note} role="note" className="rounded-md border border-amber-400 bg-amber-50 p-2 dark:bg-amber-950">
          {note}
        </p>
      ))}
      <Section
        id="diff-chats"
        title="Chats"
        summary={`${n(c.added.length)} added, ${n(c.removed.length)} removed, ${n(c.grown.length)} grown, ${n(c.shrunk.length)} shrunk, ${n(c.same)} unchanged.`}
      >
        <ChatList label="Chats added" chats={c.added} mark="+" />
        <ChatList label="Chats removed" chats={c.removed} mark="−" />
        <ChangedChats label="Chats grown" chats={c.grown} />
        <ChangedChats label="Chats shrunk" chats={c.shrunk} />
      </Section>
      <Section
        id="diff-problems"
        title="Problems"
        summary={`${n(p.appeared.length)} appeared, ${n(p.gone.length)} went away, ${n(p.kept)} still there (each bundle's own doctor report).`}
      >
        <Problems label="Problems that appeared" problems={p.appeared} />
        <Problems label="Problems that went away" problems={p.gone} />
      </Section>
      <Section
        id="diff-memories"
        title="Memories"
        summary={`${n(m.added.length)} added, ${n(m.removed.length)} removed, ${n(m.changed.length)} changed, ${n(m.same)} unchanged.`}
      >
        {m.added.length > 0 && (
          <ul aria-label="Memories added" className={LIST}>
            {m.added.map((x) => (
              <li key={`${x.set}/${x.id}`} className="p-2">
                {memoryName(x)}
                {x.enabled ? "" : ", off"}
              </li>
            ))}
          </ul>
        )}
        {m.removed.length > 0 && (
          <ul aria-label="Memories removed" className={LIST}>
            {m.removed.map((x) => (
              <li key={`${x.set}/${x.id}`} className="p-2">
                {memoryName(x)}
              </li>
            ))}
          </ul>
        )}
        {m.changed.map((x) => (
          <article key={`${x.set}/${x.id}`} aria-label={`Changed: ${memoryName(x)}`} className="space-y-2">
            <h3 className="font-medium">{memoryName(x)}</h3>
            <DiffView
              diff={{ fields: x.fields, inline: x.lines, sideBySide: [], added: x.added, removed: x.removed }}
              mode="inline"
              oldLabel={before}
              newLabel={after}
            />
          </article>
        ))}
      </Section>
      <Section id="diff-settings" title="Settings" summary={`${plural(diff.settings.changed.length, "key")} changed.`}>
        {diff.settings.changed.length > 0 && (
          <table className="text-sm">
            <caption className="sr-only">Settings changed</caption>
            <thead>
              <tr>
                <th scope="col" className="pr-4 text-left">
                  Key
                </th>
                <th scope="col" className="pr-4 text-left">
                  Before
                </th>
                <th scope="col" className="text-left">
                  After
                </th>
              </tr>
            </thead>
            <tbody>
              {diff.settings.changed.map((s) => (
                <tr key={s.key}>
                  <th scope="row" className="pr-4 text-left font-mono font-normal">
                    {s.key}
                  </th>
                  <td className="pr-4 font-mono">{s.before === null ? "(not set)" : JSON.stringify(s.before)}</td>
                  <td className="font-mono">{s.after === null ? "(not set)" : JSON.stringify(s.after)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Section>
    </div>
  );
}
