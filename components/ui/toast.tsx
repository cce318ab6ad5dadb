"use client";

import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from "react";

/** A toast: a short sentence, optionally with one action (such as Undo). */
export interface Toast {
  id: number;
  message: string;
  tone: "info" | "success" | "error";
  action?: { label: string; run: () => void };
}

type ShowToast = (toast: Omit<Toast, "id">) => void;

const ToastContext = createContext<ShowToast>(() => {});

/** `const toast = useToast(); toast({ message, tone, action })`. */
export function useToast(): ShowToast {
  return useContext(ToastContext);
}

const TONES: Record<Toast["tone"], string> = {
  info: "border-zinc-300 bg-white dark:border-zinc-700 dark:bg-zinc-900",
  success: "border-emerald-600 bg-emerald-50 dark:bg-emerald-950",
  error: "border-red-600 bg-red-50 dark:bg-red-950",
};

/** Holds the toasts and renders them in a polite live region, newest last. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setToasts((all) => all.filter((t) => t.id !== id)), []);
  const show = useCallback<ShowToast>(
    (toast) => {
      const id = next.current++;
      setToasts((all) => [...all.slice(-3), { ...toast, id }]);
      setTimeout(() => dismiss(id), toast.action ? 10_000 : 5_000);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <section
        aria-label="Notifications"
        aria-live="polite"
        className="pointer-events-none fixed right-4 bottom-4 z-50 flex w-[min(28rem,calc(100vw-2rem))] flex-col gap-2"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.tone === "error" ? "alert" : "status"}
            className={`pointer-events-auto flex items-start gap-3 rounded-md border-l-4 p-3 text-sm shadow-lg ${TONES[t.tone]}`}
          >
            <p className="flex-1 whitespace-pre-line">{t.message}</p>
            {t.action && (
              <button
                type="button"
                className="font-semibold text-blue-700 underline dark:text-blue-300"
                onClick={() => {
                  t.action?.run();
                  dismiss(t.id);
                }}
              >
                {t.action.label}
              </button>
            )}
            <button
              type="button"
              aria-label="Dismiss notification"
              className="text-zinc-600 dark:text-zinc-300"
              onClick={() => dismiss(t.id)}
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </ToastContext.Provider>
  );
}
