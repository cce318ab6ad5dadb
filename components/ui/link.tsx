"use client";

import NextLink from "next/link";
import type { ComponentProps } from "react";
import { useSourceHref } from "@/components/shell/source";

/** Next's `Link`, kept inside the page's source: `/memory` is `/b/<id>/memory` in a bundle. */
export function Link({ href, ...props }: ComponentProps<typeof NextLink>) {
  const toSource = useSourceHref();
  return <NextLink href={typeof href === "string" ? toSource(href) : href} {...props} />;
}

/** A plain anchor (a download) whose dashboard address is kept inside the page's source. */
export function SourceAnchor({ href, ...props }: ComponentProps<"a"> & { href: string }) {
  const toSource = useSourceHref();
  return <a href={toSource(href)} {...props} />;
}
