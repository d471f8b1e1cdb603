// A plan step's arguments as they will run, written out as JSON with every value a JSON pointer of the
// step's `untrusted` list names wrapped in <mark> (with where it came from), so a person sees which
// values came from outside content rather than from their own message.
import { esc, raw, type Html } from '../html.js';

export const SOURCE_NAMES: Record<string, string> = {
  tool_result: 'a tool’s result',
  site_text: 'a site’s text',
  form_submission: 'a form submission',
  peer: 'another instance',
  attachment: 'a picture',
};

export const STEP_STATUS: Record<string, [string, 'neutral' | 'ok' | 'warn' | 'danger']> = {
  pending: ['waiting', 'warn'],
  confirmed: ['confirmed, not run yet', 'warn'],
  cancelled: ['cancelled', 'neutral'],
  ran: ['ran', 'ok'],
  failed: ['failed', 'danger'],
  skipped: ['skipped', 'neutral'],
};

/** RFC 6901: `~1` is `/`, `~0` is `~`. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The arguments as indented JSON, marked values highlighted. Built as a string (every piece of text
 * through `esc`), since whitespace inside <pre> is the layout and must not be reformatted.
 */
export function argsWithMarks(args: unknown, untrusted: readonly { path: string; source: string }[]): Html {
  const marks = new Map(untrusted.map((u) => [u.path, u.source]));
  const write = (v: unknown, pointer: string, indent: string): string => {
    const inner = `${indent}  `;
    let out: string;
    if (Array.isArray(v)) {
      const items = v.map((x, i) => `${inner}${write(x, `${pointer}/${i}`, inner)}`);
      out = items.length ? `[\n${items.join(',\n')}\n${indent}]` : '[]';
    } else if (v !== null && typeof v === 'object') {
      const items = Object.entries(v as Record<string, unknown>).map(
        ([k, x]) =>
          `${inner}<span class="json-key">${esc(JSON.stringify(k))}</span>: ${write(x, `${pointer}/${token(k)}`, inner)}`,
      );
      out = items.length ? `{\n${items.join(',\n')}\n${indent}}` : '{}';
    } else {
      out = `<span class="json-value">${esc(JSON.stringify(v) ?? 'null')}</span>`;
    }
    const source = marks.get(pointer);
    if (!source) return out;
    const from = esc(SOURCE_NAMES[source] ?? source);
    return `<mark class="untrusted" title="from ${from}" data-untrusted="${esc(pointer)}">${out}<span class="visually-hidden"> (from ${from})</span></mark>`;
  };
  return raw(
    `<pre class="args" tabindex="0" role="group" aria-label="Arguments as they will run">${write(args, '', '')}</pre>`,
  );
}
