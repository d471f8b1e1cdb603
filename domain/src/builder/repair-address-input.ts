// What a person types as a free address, repaired into a label rather than refused (docs/builder.md#addresses):
// "Ada's Bakery" is `adas-bakery`, `https://adas-bakery.sites.example.org/menu` is `adas-bakery`. Pure;
// what is left is checked by the label rules (site-address.ts) as before.
import { slugifyLabel } from './site-address.js';

/** What a repair did, so the answer can say it in words. */
export type InputRepair =
  | 'trimmed'
  | 'lower_cased'
  | 'apostrophes_dropped'
  | 'accents_dropped'
  | 'spaces_to_hyphens'
  | 'characters_to_hyphens'
  | 'scheme_dropped'
  | 'path_dropped'
  | 'port_dropped'
  | 'www_dropped'
  | 'trailing_dot_dropped'
  | 'sites_domain_dropped'
  | 'shortened';

export interface RepairedInput {
  /** The repaired value (may still break a rule the checks refuse, e.g. too short or reserved). */
  value: string;
  /** What changed between the typed value and `value`, in the order it was done; empty: typed as is. */
  repairs: InputRepair[];
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The host-shaped part of a typed URL or name: without scheme, credentials, path, query, fragment,
 * port and trailing dot, recording each one dropped. Shared with the custom-domain repair.
 */
export function stripUrlParts(typed: string, repairs: InputRepair[]): string {
  let s = typed;
  if (SCHEME.test(s)) {
    s = s.replace(SCHEME, '');
    repairs.push('scheme_dropped');
  }
  const at = s.search(/[/?#]/);
  if (at >= 0) {
    // Only a real path counts as one: a lone trailing slash is part of how URLs are written.
    if (s.slice(at) !== '/') repairs.push('path_dropped');
    else if (!repairs.includes('scheme_dropped')) repairs.push('path_dropped');
    s = s.slice(0, at);
  }
  const userinfo = s.lastIndexOf('@');
  if (userinfo >= 0) s = s.slice(userinfo + 1);
  const port = /:\d*$/.exec(s);
  if (port && !s.startsWith('[')) {
    s = s.slice(0, port.index);
    repairs.push('port_dropped');
  }
  if (s.endsWith('.')) {
    s = s.replace(/\.+$/, '');
    repairs.push('trailing_dot_dropped');
  }
  return s;
}

/**
 * A typed address as a label. A URL or a host name below `sitesDomain` gives its label; anything else
 * is made label-shaped: lower case, Latin accents and apostrophes dropped, spaces and other characters
 * hyphens, at most 63 long.
 */
export function repairAddressInput(typed: string, sitesDomain?: string): RepairedInput {
  const repairs: InputRepair[] = [];
  let s = typed.trim();
  if (s !== typed) repairs.push('trimmed');
  const looksLikeUrl = SCHEME.test(s) || (/^[^\s/]+\.[^\s/]+/.test(s) && !/\s/.test(s));
  if (looksLikeUrl) {
    s = stripUrlParts(s, repairs);
    const suffix = sitesDomain ? `.${sitesDomain.toLowerCase()}` : undefined;
    if (suffix && s.toLowerCase().endsWith(suffix)) {
      s = s.slice(0, -suffix.length);
      repairs.push('sites_domain_dropped');
    }
    if (/^www\./i.test(s)) {
      s = s.slice(4);
      repairs.push('www_dropped');
    }
  }
  // Letters of another script are no typo: dropping them would make another name (Cyrillic `аpple` is
  // not `pple`), so the label rules refuse it as typed (charset).
  if ([...s].some((c) => /\p{L}/u.test(c) && !/\p{Script=Latin}/u.test(c)))
    return { value: typed.trim(), repairs: [] };
  // `xn--…` is written on purpose (punycode): it is refused as such, not made into another label.
  if (/^[a-z0-9]{2}--/i.test(s))
    return { value: s.toLowerCase(), repairs: s === s.toLowerCase() ? repairs : [...repairs, 'lower_cased'] };
  if (s !== s.toLowerCase()) repairs.push('lower_cased');
  if (/['\u2019]/.test(s)) repairs.push('apostrophes_dropped');
  if (/[^\p{ASCII}]/u.test(s) && /\p{M}/u.test(s.normalize('NFKD'))) repairs.push('accents_dropped');
  if (/\s/.test(s)) repairs.push('spaces_to_hyphens');
  const slug = slugifyLabel(s);
  const folded = s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
  // Anything but letters, digits, hyphens, apostrophes and spaces became a hyphen (`_`, `.`, `&`).
  if (/[^\p{Script=Latin}0-9'\u2019\s-]/u.test(folded)) repairs.push('characters_to_hyphens');
  if (folded.replace(/[^a-z0-9]/g, '').length > slug.replace(/-/g, '').length) repairs.push('shortened');
  // Nothing usable left: keep what was typed, so the label rules refuse it with their reason.
  if (slug === '') return { value: typed.trim(), repairs: [] };
  return { value: slug, repairs };
}
