import type { VirtualItem } from "@tanstack/react-virtual";
import type { HTMLAttributes } from "react";

/**
 * One rendered row of a TanStack virtual list: measured by the virtualiser
 * (`measure` is its `measureElement`, which finds the row by `data-index`) and
 * placed at its offset. The caller gives the `key`, the role and the content.
 */
export function VirtualRow({
  item,
  measure,
  className = "",
  ...rest
}: {
  item: VirtualItem;
  measure: (element: Element | null) => void;
} & Omit<HTMLAttributes<HTMLDivElement>, "style">) {
  return (
    <div
      ref={measure}
      data-index={item.index}
      className={`absolute top-0 left-0 w-full ${className}`}
      style={{ transform: `translateY(${item.start}px)` }}
      {...rest}
    />
  );
}
