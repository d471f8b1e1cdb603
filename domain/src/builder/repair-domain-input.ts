// What a person types as a custom domain, repaired rather than refused (docs/builder.md#domains):
// `https://www.AdasBakery.fr/` is `adasbakery.fr`. The name rules (custom-domain.ts) then check what is
// left. Pure: the A-label of a Unicode name needs UTS #46, which services apply.
import { stripUrlParts, type RepairedInput, type InputRepair } from './repair-address-input.js';

/**
 * A typed domain as the name to bind: without spaces, scheme, credentials, path, port and trailing dot,
 * lower case, and without a leading `www.` — the apex is bound and `www.<apex>` is served as its alias
 * (redirected to the apex), so `www.` is never a binding of its own.
 */
export function repairDomainInput(typed: string): RepairedInput {
  const repairs: InputRepair[] = [];
  let s = typed.trim();
  if (s !== typed) repairs.push('trimmed');
  if (/\s/.test(s)) {
    s = s.replace(/\s+/g, '');
    repairs.push('trimmed');
  }
  s = stripUrlParts(s, repairs);
  if (s !== s.toLowerCase()) {
    s = s.toLowerCase();
    repairs.push('lower_cased');
  }
  // `www.` of a name with at least two more labels: `www.example.org` → `example.org`, `www.org` stays.
  if (/^www\.[^.]+\.[^.]+/.test(s)) {
    s = s.slice(4);
    repairs.push('www_dropped');
  }
  return { value: s, repairs: [...new Set(repairs)] };
}

/** `www.<domain>`: the alias a bound apex also answers on (redirected to the apex). */
export const wwwAliasOf = (domain: string) => `www.${domain}`;
