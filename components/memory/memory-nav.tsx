"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/memory", label: "Overview", exact: true },
  { href: "/memory/deleted", label: "Recently deleted" },
  { href: "/memory/payload", label: "What a chat receives" },
  { href: "/memory/problems", label: "Problems" },
  { href: "/memory/settings", label: "Settings" },
];

/** The sub-navigation of Settings > Memory. */
export function MemoryNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Memory">
      <ul className="flex flex-wrap gap-1 border-b border-zinc-200 pb-2 text-sm dark:border-zinc-800">
        {LINKS.map((link) => {
          const current = link.exact ? pathname === link.href : pathname.startsWith(link.href);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={current ? "page" : undefined}
                className={`rounded px-3 py-1.5 ${
                  current
                    ? "bg-blue-100 font-medium text-blue-900 dark:bg-blue-950 dark:text-blue-100"
                    : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
                }`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
