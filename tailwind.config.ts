import type { Config } from "tailwindcss";

/**
 * The dashboard's theme, loaded by app/globals.css with `@config` (Tailwind v4
 * reads it alongside the CSS). Colours are Tailwind's own palette (zinc for
 * surfaces and text, blue for focus and links, amber and red for warnings and
 * errors), used by name in the components; dark mode follows the system
 * (`prefers-color-scheme`), which `color-scheme: light dark` in the CSS matches
 * for the browser's own controls.
 */
export default {
  darkMode: "media",
  theme: {
    extend: {
      fontFamily: {
        // Fonts Debian ships (fonts-liberation), so screenshots match on every machine.
        sans: ['"Liberation Sans"', '"Helvetica Neue"', "Arial", "system-ui", "sans-serif"],
        mono: ['"Liberation Mono"', '"DejaVu Sans Mono"', "ui-monospace", "monospace"],
      },
    },
  },
} satisfies Config;
