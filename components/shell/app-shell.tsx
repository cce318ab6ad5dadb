import type { ReactNode } from "react";
import { BundleBanner } from "@/components/bundle/bundle-banner";
import { Link } from "@/components/ui/link";
import type { SourceContext } from "@/server/source/context";
import { NavLinks } from "./nav-links";
import { ShortcutsProvider } from "./shortcuts";

/** The page frame: skip link, support bundle and demo banners, navigation, the main landmark and the keyboard shortcuts. */
export function AppShell({ ctx, children }: { ctx: SourceContext; children: ReactNode }) {
  const { bundle, roots } = ctx;
  return (
    <ShortcutsProvider>
      <div className="flex min-h-full flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2 focus:text-black"
        >
          Skip to content
        </a>
        {bundle && <BundleBanner id={ctx.id} bundle={bundle} readOnly={ctx.readOnly ?? ""} />}
        {roots.demo && (
          <div
            role="note"
            aria-label="Demo data"
            className="bg-amber-300 px-4 py-1.5 text-center text-sm font-medium text-amber-950"
          >
            Demo data — this dashboard shows a generated Oda home and log folder, not a real user&apos;s files.
          </div>
        )}
        <header className="border-b border-zinc-200 dark:border-zinc-800">
          <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <Link href="/" className="text-lg font-semibold tracking-tight">
              Oda Admin
            </Link>
            <NavLinks />
          </div>
        </header>
        <main id="main" className="mx-auto w-full max-w-7xl flex-1 px-4 py-6">
          {children}
        </main>
      </div>
    </ShortcutsProvider>
  );
}
