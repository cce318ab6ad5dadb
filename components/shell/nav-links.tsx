import { NavList } from "@/components/ui/nav-list";

const LINKS = [
  { href: "/", label: "Home", exact: true },
  { href: "/memory", label: "Memory" },
  { href: "/chats", label: "Chats" },
  { href: "/search", label: "Search" },
  { href: "/insights", label: "Insights" },
  { href: "/repairs", label: "Repairs" },
  { href: "/support/doctor", label: "Doctor" },
  // exact: the Doctor report lives under /support but is its own entry
  { href: "/support", label: "Support", exact: true },
  { href: "/bundles", label: "Bundles" },
];

/** The main navigation; the current section is marked for screen readers too. */
export function NavLinks() {
  return <NavList label="Main" items={LINKS} tone="primary" />;
}
