import { createTheme, type MantineColorsTuple } from '@mantine/core';

// The brand's orange, in shades where white text on the filled colour (shade 6 light, 8 dark) and orange text on
// the page reach 4.5:1 (WCAG AA); Mantine's own orange 6 gave white text 2.57:1.
const orange: MantineColorsTuple = ['#fff7ed', '#ffedd5', '#fed7aa', '#fdba74', '#fb923c', '#f97316', '#c2410c', '#ad3a0b', '#9a3412', '#7c2d12'];

// Red and blue with their filled shade (6) dark enough for white text at 4.5:1, as on Delete buttons and badges.
const red: MantineColorsTuple = ['#fff5f5', '#ffe3e3', '#ffc9c9', '#ffa8a8', '#ff8787', '#ff6b6b', '#c92a2a', '#b42424', '#a51d1d', '#8a1717'];
const blue: MantineColorsTuple = ['#e7f5ff', '#d0ebff', '#a5d8ff', '#74c0fc', '#4dabf7', '#339af0', '#1971c2', '#1864ab', '#145591', '#0f4577'];

/** The one Mantine theme of both entries: the app (main.tsx) and the marketing home page (home-main.tsx). */
export const theme = createTheme({
  colors: { orange, red, blue },
  primaryColor: 'orange',
  primaryShade: { light: 6, dark: 8 },
  // Filled badges, buttons and icons take black or white text, whichever reads better on their colour (the crossover
  // for the most contrast is a luminance of 0.179; Mantine's default 0.3 left white on red, blue and gray at ~3.3:1).
  autoContrast: true,
  luminanceThreshold: 0.179,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  components: {
    // A closed list (every Select's, Autocomplete's) renders nothing: Mantine keeps closed dropdowns in the page, hidden,
    // which made the dashboard's seven Selects most of its first render (issue 33). A plain object, as below.
    Combobox: { defaultProps: { keepMounted: false } },
    // A plain object, not Modal.extend(): importing Modal here would put the dialog's code into every page's entry.
    Modal: {
      defaultProps: {
        // The X of every dialog has a name (a modal may still name it itself).
        closeButtonProps: { 'aria-label': 'Close dialog' },
        // Mantine draws a dialog's title bar as <header>; inside role="dialog" (not a sectioning element) that reads as
        // a second page banner beside the app's header. It is no landmark, just the dialog's title and its X.
        attributes: { header: { role: 'none' } },
      },
    },
  },
});
