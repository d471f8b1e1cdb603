// The argument summary a provenance entry keeps: enough for an auditor to see what was asked, never a
// secret. Values under secret-sounding keys and bearer-looking strings are replaced, long values cut.
import { withStorableCharacters } from '../shared/text-characters.js';

export const REDACTED = '[redacted]';
const PROVENANCE_LIMITS = { string: 200, items: 20, keys: 30, depth: 4 } as const;
/** `svc.audit.recent` returns this many entries unless asked, and never more than the maximum. */
export const AUDIT_RECENT_DEFAULT = 50;
export const AUDIT_RECENT_MAX = 200;

const SECRET_KEY =
  /pass(word|phrase)?|secret|token|authori[sz]ation|cookie|api[-_]?key|private[-_]?key|credential|bearer/i;
const JWT_LIKE = /^eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const BEARER_LIKE = /^bearer\s/i;

const isSecretKey = (key: string) => SECRET_KEY.test(key);

function summarize(value: unknown, depth: number): unknown {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'string') {
    if (JWT_LIKE.test(value) || BEARER_LIKE.test(value)) return REDACTED;
    // A refused call is recorded too, with what it sent: as text the log can hold.
    const text = withStorableCharacters(value);
    return text.length > PROVENANCE_LIMITS.string
      ? `${text.slice(0, PROVENANCE_LIMITS.string)}…[+${text.length - PROVENANCE_LIMITS.string} chars]`
      : text;
  }
  if (depth >= PROVENANCE_LIMITS.depth) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, PROVENANCE_LIMITS.items).map((v) => summarize(v, depth + 1));
    if (value.length > PROVENANCE_LIMITS.items)
      items.push(`[+${value.length - PROVENANCE_LIMITS.items} items]`);
    return items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [k, v] of entries.slice(0, PROVENANCE_LIMITS.keys))
      out[withStorableCharacters(k)] = isSecretKey(k) ? REDACTED : summarize(v, depth + 1);
    if (entries.length > PROVENANCE_LIMITS.keys) out['[more keys]'] = entries.length - PROVENANCE_LIMITS.keys;
    return out;
  }
  return `[${typeof value}]`; // undefined, functions, bigints: never raw
}

/** The redacted summary of a tool's raw arguments, always an object. */
export function summarizeArguments(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  const s = summarize(raw, 0);
  return s !== null && typeof s === 'object' && !Array.isArray(s)
    ? (s as Record<string, unknown>)
    : { value: s };
}
