import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { guardPage } from "@/server/guard";
import { serverRoots } from "@/server/roots";

/** Every dashboard page passes the access guard here, behind the proxy's own check. */
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  await guardPage();
  return <AppShell roots={serverRoots()}>{children}</AppShell>;
}
