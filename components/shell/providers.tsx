"use client";

import { QueryClientProvider } from "@tanstack/react-query";
import { NuqsAdapter } from "nuqs/adapters/next/app";
import { type ReactNode, useState } from "react";
// Evaluated with the root layout, before Next's router adds its popstate listener: see the module.
import "@/components/shell/popstate-hold";
import { makeQueryClient } from "@/components/shell/query-client";
import { ToastProvider } from "@/components/ui/toast";

/** Client-side providers: one QueryClient per browser tab, the toasts, and nuqs (page state kept in the URL). */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={client}>
      <NuqsAdapter>
        <ToastProvider>{children}</ToastProvider>
      </NuqsAdapter>
    </QueryClientProvider>
  );
}
