// Text PostgreSQL cannot hold: U+0000 (in `text` or `jsonb`) and an unpaired UTF-16 surrogate (which
// has no UTF-8 form, and which `jsonb` refuses as an escape). Such input is refused at the edge, before
// it reaches a query, so it is a 400 and never a database error (docs/api.md#bad-bytes).
// eslint-disable-next-line no-control-regex -- NUL is exactly what it looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `s` holds a character no text column can store. */
export const hasUnstorableCharacters = (s: string): boolean => UNSTORABLE.test(s);

/** `s` with each such character replaced by U+FFFD, for what must record it anyway (provenance). */
export const withStorableCharacters = (s: string): string =>
  s.replace(new RegExp(UNSTORABLE.source, 'g'), '\uFFFD');

/**
 * Where in a JSON-like value (a parsed body, an operation's input) the first unstorable string or key
 * is, as a dotted path ('' for the value itself); null when there is none. Walked without recursion, so
 * no nesting depth a body can reach overflows the stack.
 */
export function unstorablePath(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasUnstorableCharacters(v)) return path;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const entries = Array.isArray(v)
      ? v.map((item, i) => [String(i), item] as const)
      : Object.entries(v as Record<string, unknown>);
    for (const [k, item] of entries) {
      const at = path === '' ? k : `${path}.${k}`;
      if (hasUnstorableCharacters(k)) return withStorableCharacters(at);
      stack.push([item, at]);
    }
  }
  return null;
}
