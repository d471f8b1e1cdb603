// HTML built by template functions: `html` escapes every interpolated value unless it is already Html
// (from another `html`, or `raw` for markup the code itself wrote). Arrays are joined, and null,
// undefined and false render as nothing, so `${cond && html`…`}` and `${items.map(…)}` just work.
// docs/web.md#templates

export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

export const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A value that may appear inside `html`: escaped text, Html, numbers, lists, or nothing. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false || v === true) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return (v as readonly HtmlValue[]).map(render).join('');
  return esc(String(v));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup the code wrote itself (never text from a request or the log). */
export const raw = (markup: string) => new Html(markup);

/** Html, or a string the caller built with `esc` already (the older pages). */
export type Markup = Html | string;
export const markupText = (m: Markup) => (m instanceof Html ? m.text : m);
