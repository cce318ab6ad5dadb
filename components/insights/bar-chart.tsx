"use client";

import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { fitLabel } from "./fit-label";

/**
 * A stacked bar chart drawn with uPlot. uPlot was chosen over Recharts for
 * size and speed: about 50 KB minified with no dependencies (Recharts pulls in
 * d3 modules and lodash, several times that), and it draws on one canvas, so a
 * year of days by model is a few milliseconds where an SVG chart builds
 * thousands of DOM nodes. It is loaded only in the browser, after the
 * server-rendered tables. A canvas says nothing to a screen reader: the figure
 * carries a label, and every chart has a table view with the same numbers.
 */

/** One stacked part: its name and a value per category. */
export interface BarSeries {
  label: string;
  values: number[];
}

/** Colours that read on white and on zinc-950 alike (Okabe-Ito, colour-blind safe). */
const PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#999999"];

/** The nth series colour. */
export function seriesColor(n: number): string {
  return PALETTE[n % PALETTE.length] as string;
}

/** Draws `series` stacked over `categories`; redrawn when the data, the width or the colour scheme change. */
export function BarChart({
  categories,
  series,
  label,
  height = 240,
  stacked = true,
}: {
  categories: string[];
  series: BarSeries[];
  label: string;
  height?: number;
  /** False: each series is its own line (counts that do not add up, like chats started and active). */
  stacked?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let plot: uPlot | null = null;
    let cancelled = false;
    const dark = window.matchMedia("(prefers-color-scheme: dark)");
    const draw = async () => {
      const { default: UPlot } = await import("uplot");
      if (cancelled) return;
      plot?.destroy();
      // Stacked by drawing running totals, the tallest first, each covering the ones below it.
      const sums: number[][] = [];
      let run = categories.map(() => 0);
      for (const s of series) {
        run = stacked ? run.map((v, i) => v + (s.values[i] ?? 0)) : s.values;
        sums.push(run);
      }
      const text = getComputedStyle(el).color;
      const grid = dark.matches ? "rgba(255,255,255,0.12)" : "rgba(0,0,0,0.1)";
      const axis = { stroke: text, grid: { stroke: grid }, ticks: { stroke: grid } };
      const bars = UPlot.paths.bars?.({ size: [0.7, 48] });
      const order = series.map((_, i) => i).reverse();
      plot = new UPlot(
        {
          width: Math.max(200, el.clientWidth),
          height,
          legend: { show: false },
          cursor: { show: false },
          scales: {
            x: { time: false, range: [-0.5, Math.max(0.5, categories.length - 0.5)] },
            // Bars start at zero, whatever the smallest value.
            y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] },
          },
          axes: [
            {
              ...axis,
              // One label per LABEL_PX at most, on whole categories, so they never overlap.
              splits: (u) => {
                const room = Math.max(1, Math.floor(u.bbox.width / devicePixelRatio / LABEL_PX));
                const step = Math.max(1, Math.ceil(categories.length / room));
                return categories.map((_, i) => i).filter((i) => i % step === 0);
              },
              font: AXIS_FONT,
              // Each label gets its share of the width (its category's and the skipped ones'); only a label
              // wider than that is cut, in the middle. The whole label shows on hover and in the table view.
              values: (u, ticks) => {
                const step = ticks.length > 1 ? (ticks[1] as number) - (ticks[0] as number) : categories.length;
                const room = ((u.bbox.width / devicePixelRatio) * step) / Math.max(1, categories.length) - 8;
                return ticks.map((t) => fitLabel(categories[t] ?? "", room, measureAxisText));
              },
            },
            { ...axis, size: 70, values: (_u, ticks) => ticks.map((t) => compact(t)) },
          ],
          series: [
            {},
            ...order.map((i) => ({
              label: series[i]?.label,
              fill: stacked ? seriesColor(i) : undefined,
              stroke: seriesColor(i),
              width: stacked ? 1 : 2,
              paths: stacked ? bars : undefined,
              points: { show: !stacked },
            })),
          ],
        },
        [categories.map((_, i) => i), ...order.map((i) => sums[i] as number[])],
        el,
      );
    };
    void draw();
    // The whole label of the category under the pointer, as the chart's hover title.
    const hover = (e: PointerEvent) => {
      const over = plot?.over.getBoundingClientRect();
      if (!plot || !over) return;
      const x = e.clientX - over.left;
      const i = Math.round(plot.posToVal(x, "x"));
      el.title = x >= 0 && x <= over.width && categories[i] !== undefined ? categories[i] : "";
    };
    el.addEventListener("pointermove", hover);
    const resize = new ResizeObserver(() => plot?.setSize({ width: Math.max(200, el.clientWidth), height }));
    resize.observe(el);
    const redraw = () => void draw();
    dark.addEventListener("change", redraw);
    return () => {
      cancelled = true;
      el.removeEventListener("pointermove", hover);
      resize.disconnect();
      dark.removeEventListener("change", redraw);
      plot?.destroy();
    };
  }, [categories, series, height, stacked]);
  return (
    <figure className="m-0">
      <div ref={box} role="img" aria-label={label} className="w-full text-zinc-800 dark:text-zinc-200" />
      {series.length > 1 && (
        <figcaption className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
          {series.map((s, i) => (
            <span key={s.label} className="inline-flex items-center gap-1.5">
              <span
                aria-hidden="true"
                className="inline-block h-3 w-3 rounded-sm"
                style={{ background: seriesColor(i) }}
              />
              {s.label}
            </span>
          ))}
        </figcaption>
      )}
    </figure>
  );
}

/** The room one x-axis label takes, in CSS pixels. */
const LABEL_PX = 110;

/** The x-axis labels' font, as uPlot draws them (CSS pixels; it scales by the device pixel ratio itself). */
const AXIS_FONT = "12px system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";

let measurer: CanvasRenderingContext2D | null = null;

/** The width of `text` in the axis font, in CSS pixels. */
function measureAxisText(text: string): number {
  measurer ??= document.createElement("canvas").getContext("2d");
  if (!measurer) return text.length * 7;
  measurer.font = AXIS_FONT;
  return measurer.measureText(text).width;
}

/** 1234567 → "1.2M": axis labels only; tables show every digit. */
function compact(n: number): string {
  return new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 }).format(n);
}
