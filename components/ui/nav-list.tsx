"use client";

import { useSourcePathname } from "@/components/shell/source";
import { Link } from "@/components/ui/link";

/** One link of a navigation list; `exact` marks it current only on its own path. */
export interface NavItem {
  href: string;
  label: string;
  exact?: boolean;
}

const STYLES = {
  primary: {
    list: "flex flex-wrap gap-1 text-sm",
    current: "bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900",
  },
  secondary: {
    list: "flex flex-wrap gap-1 border-b border-zinc-200 pb-2 text-sm dark:border-zinc-800",
    current: "bg-blue-100 font-medium text-blue-900 dark:bg-blue-950 dark:text-blue-100",
  },
} as const;

const IDLE = "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800";

/** A labelled navigation landmark whose current link carries `aria-current="page"`. */
export function NavList({ label, items, tone }: { label: string; items: NavItem[]; tone: keyof typeof STYLES }) {
  const pathname = useSourcePathname();
  const style = STYLES[tone];
  return (
    <nav aria-label={label}>
      <ul className={style.list}>
        {items.map((item) => {
          const current = item.exact ? pathname === item.href : pathname.startsWith(item.href);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={current ? "page" : undefined}
                className={`rounded px-3 py-1.5 ${current ? style.current : IDLE}`}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
