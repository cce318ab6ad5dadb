import { NavList } from "@/components/ui/nav-list";

const LINKS = [
  { href: "/memory", label: "Overview", exact: true },
  { href: "/memory/health", label: "Health" },
  { href: "/memory/deleted", label: "Recently deleted" },
  { href: "/memory/payload", label: "What a chat receives" },
  { href: "/memory/problems", label: "Problems" },
  { href: "/memory/settings", label: "Settings" },
];

/** The sub-navigation of Settings > Memory. */
export function MemoryNav() {
  return <NavList label="Memory" items={LINKS} tone="secondary" />;
}
