// The stylesheets of the three themes: one shared layout, each theme its own colours and type. A page
// links exactly one of them, stored once per version at `/_assets/site.<hash>.css`; nothing else in a
// site styles anything (no style attribute, no <style> element: the site's CSP allows only 'self').
import type { SiteTheme } from '@tributary/domain';

interface ThemeTokens {
  /** `color-scheme`: what the browser's own controls follow. */
  scheme: 'light' | 'dark';
  bg: string;
  surface: string;
  text: string;
  muted: string;
  border: string;
  accent: string;
  accentText: string;
  link: string;
  headerBg: string;
  headerText: string;
  bodyFont: string;
  headingFont: string;
  radius: string;
  measure: string;
}

const SANS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", "Liberation Sans", Arial, sans-serif';
const SERIF = 'Charter, "Bitstream Charter", "Sitka Text", Cambria, Georgia, "Times New Roman", serif';

const THEMES: Record<SiteTheme, ThemeTokens> = {
  classic: {
    scheme: 'light',
    bg: '#fdfcf9',
    surface: '#f4f1ea',
    text: '#1f1d1a',
    muted: '#5f5a52',
    border: '#d9d3c7',
    accent: '#7a2e1c',
    accentText: '#ffffff',
    link: '#7a2e1c',
    headerBg: '#fdfcf9',
    headerText: '#1f1d1a',
    bodyFont: SERIF,
    headingFont: SERIF,
    radius: '2px',
    measure: '40rem',
  },
  modern: {
    scheme: 'light',
    bg: '#ffffff',
    surface: '#f3f5f9',
    text: '#141923',
    muted: '#556070',
    border: '#dde2ea',
    accent: '#3346d3',
    accentText: '#ffffff',
    link: '#2c3cc0',
    headerBg: '#141923',
    headerText: '#ffffff',
    bodyFont: SANS,
    headingFont: SANS,
    radius: '10px',
    measure: '46rem',
  },
  dark: {
    scheme: 'dark',
    bg: '#12141a',
    surface: '#1c1f28',
    text: '#e7e9ee',
    muted: '#a4abb8',
    border: '#2e3340',
    accent: '#8fb4ff',
    accentText: '#0b1020',
    link: '#9fc0ff',
    headerBg: '#0c0e12',
    headerText: '#e7e9ee',
    bodyFont: SANS,
    headingFont: SANS,
    radius: '8px',
    measure: '44rem',
  },
};

const variables = (t: ThemeTokens) => `:root {
  color-scheme: ${t.scheme};
  --bg: ${t.bg};
  --surface: ${t.surface};
  --text: ${t.text};
  --muted: ${t.muted};
  --border: ${t.border};
  --accent: ${t.accent};
  --accent-text: ${t.accentText};
  --link: ${t.link};
  --header-bg: ${t.headerBg};
  --header-text: ${t.headerText};
  --body-font: ${t.bodyFont};
  --heading-font: ${t.headingFont};
  --radius: ${t.radius};
  --measure: ${t.measure};
}
`;

const LAYOUT = `*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  flex-direction: column;
  background: var(--bg);
  color: var(--text);
  font-family: var(--body-font);
  font-size: 1.0625rem;
  line-height: 1.65;
}
.wrap { width: 100%; max-width: var(--measure); margin: 0 auto; padding: 0 1.25rem; }
a { color: var(--link); text-underline-offset: 0.15em; }
a:hover { text-decoration-thickness: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible {
  outline: 3px solid var(--accent);
  outline-offset: 2px;
}
img { max-width: 100%; height: auto; display: block; border-radius: var(--radius); }
.skip-link { position: absolute; left: -9999px; top: 0; }
.skip-link:focus { left: 1rem; top: 1rem; z-index: 10; padding: 0.5rem 0.75rem; background: var(--bg); color: var(--text); }

.site-header { background: var(--header-bg); color: var(--header-text); border-bottom: 1px solid var(--border); }
.site-header .wrap {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.5rem 1.5rem;
  padding-top: 1rem;
  padding-bottom: 1rem;
}
.site-title { font-family: var(--heading-font); font-weight: 700; font-size: 1.25rem; color: inherit; text-decoration: none; }
.site-nav ul { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; margin: 0; padding: 0; }
.site-nav a { color: inherit; text-decoration: none; padding: 0.25rem 0; border-bottom: 2px solid transparent; }
.site-nav a:hover, .site-nav a[aria-current="page"] { border-bottom-color: var(--accent); }

/* main.wrap, not main: .wrap's padding shorthand would win over an element selector and glue the page's
   first heading to the header. */
main.wrap { flex: 1 0 auto; padding-top: 2.5rem; padding-bottom: 3rem; }
h1, h2, h3, h4 { font-family: var(--heading-font); line-height: 1.25; margin: 2rem 0 0.75rem; }
h1 { font-size: clamp(2rem, 5vw, 2.75rem); margin-top: 0; }
h2 { font-size: 1.6rem; }
h3 { font-size: 1.3rem; }
h4 { font-size: 1.1rem; }
p, ul, ol, blockquote, pre, figure { margin: 0 0 1.1rem; }
.page-lead { color: var(--muted); font-size: 1.15rem; margin-top: -0.25rem; }
blockquote { border-left: 4px solid var(--accent); padding: 0.25rem 0 0.25rem 1rem; color: var(--muted); }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.9em; background: var(--surface); padding: 0.1em 0.3em; border-radius: 4px; }
pre { background: var(--surface); padding: 1rem; overflow-x: auto; border-radius: var(--radius); }
pre code { background: none; padding: 0; }
hr { border: 0; border-top: 1px solid var(--border); margin: 2rem 0; }

figure { margin-left: 0; margin-right: 0; }
figcaption { color: var(--muted); font-size: 0.9rem; margin-top: 0.4rem; }
.gallery { display: grid; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); gap: 1rem; margin-bottom: 1.1rem; }
.gallery figure { margin: 0; }
.link-list { list-style: none; padding: 0; }
.link-list li { padding: 0.4rem 0; border-bottom: 1px solid var(--border); }
.button-row { margin: 1.5rem 0; }
.button {
  display: inline-block;
  padding: 0.65rem 1.25rem;
  border-radius: var(--radius);
  border: 2px solid var(--accent);
  font-weight: 600;
  text-decoration: none;
  line-height: 1.2;
}
.button-primary { background: var(--accent); color: var(--accent-text); }
.button-secondary { background: transparent; color: var(--link); }
.button:hover { filter: brightness(1.08); }
.columns { display: grid; gap: 1.5rem; margin-bottom: 1.1rem; }
.columns > .column > :last-child { margin-bottom: 0; }
@media (min-width: 44rem) {
  .columns-2 { grid-template-columns: repeat(2, 1fr); }
  .columns-3 { grid-template-columns: repeat(3, 1fr); }
  .columns-4 { grid-template-columns: repeat(4, 1fr); }
}

.site-form { background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius); padding: 1.25rem; margin-bottom: 1.1rem; }
.site-form h2 { margin-top: 0; }
.form-field { margin-bottom: 1rem; }
.form-field label { display: block; font-weight: 600; margin-bottom: 0.3rem; }
.form-field .required { color: var(--accent); }
.form-field input, .form-field textarea, .form-field select {
  width: 100%;
  font: inherit;
  padding: 0.55rem 0.7rem;
  color: var(--text);
  background: var(--bg);
  border: 1px solid var(--border);
  border-radius: var(--radius);
}
.form-field textarea { min-height: 8rem; resize: vertical; }
.form-check label { display: flex; gap: 0.5rem; align-items: baseline; font-weight: 400; }
.form-check input { width: auto; }
.site-form button {
  font: inherit;
  font-weight: 600;
  padding: 0.65rem 1.25rem;
  border-radius: var(--radius);
  border: 2px solid var(--accent);
  background: var(--accent);
  color: var(--accent-text);
  cursor: pointer;
}
/* A form shown again after a refused submission: the problems above it and beside each field. */
.form-problems { border-left: 4px solid var(--accent); padding: 0.5rem 1rem; margin-bottom: 1.1rem; background: var(--surface); }
.field-error { display: block; font-weight: 600; margin-top: 0.3rem; }
.form-field [aria-invalid="true"] { border: 2px solid var(--accent); }
/* The honeypot: out of sight and out of the tab order; a person leaves it empty, a form-filling bot does not. */
.hp { position: absolute; left: -10000px; top: auto; width: 1px; height: 1px; overflow: hidden; }

.site-footer { border-top: 1px solid var(--border); background: var(--surface); color: var(--muted); font-size: 0.95rem; }
.site-footer .wrap { padding-top: 1.5rem; padding-bottom: 2rem; }
.site-footer p:last-child { margin-bottom: 0; }
.footer-links { list-style: none; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0; margin: 0 0 0.75rem; }

@media (max-width: 30rem) {
  body { font-size: 1rem; }
  main.wrap { padding-top: 1.5rem; }
}
@media print {
  .site-header, .site-footer, .site-form { display: none; }
  a { color: inherit; }
}
`;

/** The stylesheet of a theme: its variables, then the shared layout. */
export const themeStylesheet = (theme: SiteTheme): string => variables(THEMES[theme]) + '\n' + LAYOUT;
