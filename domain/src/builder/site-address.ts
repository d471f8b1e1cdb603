// A site's free address: a DNS label under the instance's sites domain (`<label>.<SITES_DOMAIN>`, and
// `/sites/<label>/` on the instance). The rules are stated in docs/builder.md#addresses; every refusal
// is `builder.label_invalid` with a stable `reason`, so clients can say what to change.
import { invalid } from '../shared/errors.js';

export const LABEL_LIMITS = { min: 3, max: 63 } as const;

export type LabelRefusal = 'too_short' | 'too_long' | 'charset' | 'hyphen' | 'punycode' | 'reserved';

/**
 * Names a free address may never be: infrastructure host names, mail and autoconfiguration names, the
 * pages and roles an operator or a certificate authority expects to own, and words that would pass for
 * the instance itself. The instance's own names (its name, its primary agent's handle, the labels of its
 * hosts) are added by the caller (`instanceReservedLabels`).
 */
export const RESERVED_LABELS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'app',
  'admin',
  'administrator',
  'mail',
  'email',
  'smtp',
  'imap',
  'pop',
  'pop3',
  'ftp',
  'sftp',
  'ssh',
  'ns',
  'ns0',
  'ns1',
  'ns2',
  'ns3',
  'ns4',
  'dns',
  'mx',
  'autoconfig',
  'autodiscover',
  'static',
  'assets',
  'cdn',
  'media',
  'status',
  'help',
  'support',
  'billing',
  'login',
  'logout',
  'signin',
  'signup',
  'register',
  'account',
  'accounts',
  'auth',
  'sso',
  'oauth',
  'mcp',
  'dev',
  'test',
  'staging',
  'preview',
  'root',
  'postmaster',
  'abuse',
  'hostmaster',
  'webmaster',
  'security',
  'noreply',
  'no-reply',
  'sites',
  'site',
  'builder',
  'federation',
  'global',
  'tributary',
  'localhost',
  'wpad',
  'isatap',
]);

const LABEL_CHARS = /^[a-z0-9-]+$/;

/** Why `label` may not be an address, or null when it may; `reserved` is checked with RESERVED_LABELS. */
export function labelRefusal(label: string, reserved: ReadonlySet<string> = new Set()): LabelRefusal | null {
  // Characters first: a dot, an upper-case letter, an underscore or any non-ASCII character (a Cyrillic
  // `а` passing for a Latin `a`) is refused as such, whatever the length.
  if (!LABEL_CHARS.test(label)) return label.length === 0 ? 'too_short' : 'charset';
  if (label.length < LABEL_LIMITS.min) return 'too_short';
  if (label.length > LABEL_LIMITS.max) return 'too_long';
  if (label.startsWith('-') || label.endsWith('-')) return 'hyphen';
  // RFC 5891 §4.2.3.1: hyphens in the third and fourth positions are reserved for encodings
  // (`xn--` is punycode); a label holding one could render as another script's look-alike.
  if (label[2] === '-' && label[3] === '-') return 'punycode';
  if (RESERVED_LABELS.has(label) || reserved.has(label)) return 'reserved';
  return null;
}

const REFUSAL_MESSAGES: Record<LabelRefusal, string> = {
  too_short: `an address has at least ${LABEL_LIMITS.min} characters`,
  too_long: `an address has at most ${LABEL_LIMITS.max} characters`,
  charset: 'an address holds only lower-case a-z, 0-9 and hyphens (no dots, capitals or other scripts)',
  hyphen: 'an address neither starts nor ends with a hyphen',
  punycode: 'an address has no hyphens in its third and fourth places (xn-- and the like)',
  reserved: 'that address is reserved',
};

/** Throws `builder.label_invalid` with the `reason` when `label` may not be an address. */
export function requireValidLabel(label: string, reserved: ReadonlySet<string> = new Set()): void {
  const reason = labelRefusal(label, reserved);
  if (reason) {
    const bad = reason === 'charset' ? [...label].find((c) => !/[a-z0-9-]/.test(c)) : undefined;
    throw invalid('builder.label_invalid', REFUSAL_MESSAGES[reason], {
      reason,
      label,
      ...(bad !== undefined && {
        character: `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
      }),
    });
  }
}

/** Letters that do not decompose into a base letter and a mark. */
const LATIN_FOLDS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ŋ: 'n',
  ħ: 'h',
};

/**
 * A title as a label-shaped slug: Latin diacritics dropped, apostrophes dropped, anything else a hyphen,
 * at most 63 long.
 */
export function slugifyLabel(text: string): string {
  const folded = [...text.toLowerCase().normalize('NFKD')]
    .map((c) => LATIN_FOLDS[c] ?? c)
    .join('')
    .replace(/\p{M}+/gu, '');
  return folded
    .replace(/['\u2019]/g, '') // "Ada's" is `adas`, not `ada-s`
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, LABEL_LIMITS.max)
    .replace(/-+$/, '');
}

/**
 * The labels to try, in order, for a site with this title: its slug (`my-site`), then `my-site-2`,
 * `my-site-3`…; a slug too short, reserved or empty gets `-site` (`help-site`, and `site` alone is
 * reserved, so a title with nothing Latin in it starts at `my-site`). Each is a valid label.
 */
export function labelCandidates(
  title: string,
  count: number,
  reserved: ReadonlySet<string> = new Set(),
): string[] {
  let base = slugifyLabel(title);
  if (base === '') base = 'my-site';
  else if (labelRefusal(base, reserved)) base = `${base}-site`.replace(/^-+/, '');
  // A slug that still fails (`xn-…`, a reserved `…-site`) falls back to the neutral one.
  if (labelRefusal(base, reserved)) base = 'my-site';
  const out: string[] = [];
  for (let n = 1; out.length < count && n <= count * 2; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const candidate = `${base.slice(0, LABEL_LIMITS.max - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!labelRefusal(candidate, reserved)) out.push(candidate);
  }
  return out;
}

/**
 * The instance's own names as labels: its name's slug, its primary agent's handle, and every label of
 * its hosts (`tributary.example.org` reserves `tributary`, `example` and `org`), so no site passes for
 * the instance.
 */
export function instanceReservedLabels(o: {
  name?: string | undefined;
  handle?: string | null | undefined;
  hosts?: readonly (string | undefined)[];
}): Set<string> {
  const out = new Set<string>();
  const add = (s: string | null | undefined) => {
    const slug = s ? slugifyLabel(s) : '';
    if (slug) out.add(slug);
  };
  add(o.name);
  add(o.handle);
  for (const host of o.hosts ?? []) {
    if (!host) continue;
    add(host.replace(/:\d+$/, ''));
    for (const part of host.replace(/:\d+$/, '').split('.')) add(part);
  }
  return out;
}

/** A host name as the global registry records it: lower-case DNS labels, or an IPv4 address. */
const HOSTNAME =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
export const isHostname = (value: string): boolean => HOSTNAME.test(value);
