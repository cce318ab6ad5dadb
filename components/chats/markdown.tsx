"use client";

import Markdown, { type Components } from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Element styles for a message's Markdown (no typography plugin here): tables
 * with borders, lists with markers, code in a monospace box that scrolls
 * rather than widens the log pane.
 */
const COMPONENTS: Components = {
  p: ({ node: _n, ...props }) => <p className="my-1 break-words whitespace-pre-wrap" {...props} />,
  ul: ({ node: _n, ...props }) => <ul className="my-1 list-disc pl-5" {...props} />,
  ol: ({ node: _n, ...props }) => <ol className="my-1 list-decimal pl-5" {...props} />,
  table: ({ node: _n, ...props }) => (
    <div className="my-1 overflow-x-auto">
      <table className="border-collapse text-xs" {...props} />
    </div>
  ),
  th: ({ node: _n, ...props }) => (
    <th className="border border-zinc-400 px-2 py-0.5 text-left font-semibold dark:border-zinc-600" {...props} />
  ),
  td: ({ node: _n, ...props }) => <td className="border border-zinc-400 px-2 py-0.5 dark:border-zinc-600" {...props} />,
  pre: ({ node: _n, ...props }) => (
    <pre className="my-1 overflow-x-auto rounded bg-zinc-100 p-2 font-mono text-xs dark:bg-zinc-900" {...props} />
  ),
  code: ({ node: _n, ...props }) => <code className="font-mono text-[0.85em]" {...props} />,
  a: ({ node: _n, ...props }) => (
    <a className="text-blue-800 underline dark:text-blue-300" rel="noreferrer noopener" target="_blank" {...props} />
  ),
  h1: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  h2: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  h3: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  h4: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  h5: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  h6: ({ node: _n, ...props }) => <p className="my-1 font-semibold" {...props} />,
  blockquote: ({ node: _n, ...props }) => <blockquote className="my-1 border-l-4 border-zinc-400 pl-2" {...props} />,
};

/**
 * A message's text as Markdown (GitHub's flavour: tables, task lists,
 * strikethrough). Sanitised: raw HTML in a message is dropped, never rendered
 * (no rehype-raw), and link targets pass react-markdown's URL filter, so a
 * `javascript:` link cannot run. Headings render as bold paragraphs to keep
 * the page's heading outline.
 */
export function MessageMarkdown({ text }: { text: string }) {
  return (
    <div dir="auto" className="text-sm">
      <Markdown remarkPlugins={[remarkGfm]} skipHtml components={COMPONENTS}>
        {text}
      </Markdown>
    </div>
  );
}
