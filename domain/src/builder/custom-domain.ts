// The names a site may be bound to as a custom domain (docs/builder.md#domains). A name is
// checked and normalized here, without DNS: a lower-case ASCII FQDN whose labels are DNS labels. What
// needs the public-suffix list (a name that is itself a public suffix, apex or subdomain) is decided
// in services, which may use a library; the domain stays pure.
import { invalid } from '../shared/errors.js';

/** Where the challenge TXT record lives, below the bound name. */
export const CHALLENGE_LABEL = '_tributary-challenge';
export const challengeRecordName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;

/**
 * 253 is DNS's limit for a name; the challenge record `_tributary-challenge.<domain>` must fit it too,
 * so a bound domain is at most 253 − 21 characters.
 */
export const CUSTOM_DOMAIN_MAX_LENGTH = 253 - CHALLENGE_LABEL.length - 1;

/**
 * Top-level names that never resolve on the public DNS, so no certificate authority can issue for
 * them and no visitor could reach a site there: RFC 6761/6762 special-use names (localhost, local,
 * test, invalid, example), RFC 7686 onion, RFC 9476 alt, the infrastructure arpa tree, ICANN's
 * private-use internal, and the names ICANN will not delegate because private networks use them
 * (home, corp, lan, localdomain).
 */
export const NON_PUBLIC_TLDS: readonly string[] = [
  'localhost',
  'local',
  'localdomain',
  'test',
  'invalid',
  'example',
  'internal',
  'onion',
  'alt',
  'arpa',
  'home',
  'corp',
  'lan',
];

/** Why a name is not a well-formed domain name (builder.domain_invalid). */
export type DomainInvalidReason =
  | 'empty'
  | 'too_long'
  | 'unicode'
  | 'empty_label'
  | 'single_label'
  | 'label_too_long'
  | 'bad_character'
  | 'hyphen_edge'
  | 'reserved_label';

/** Why a well-formed name cannot be bound (builder.domain_not_allowed). */
export type DomainNotAllowedReason =
  'ip_address' | 'non_public_tld' | 'instance_host' | 'sites_domain' | 'public_suffix';

export interface CustomDomainContext {
  /** The instance's own host names (BASE_URL's, and any other it answers on): never bindable, nor below. */
  instanceHosts: readonly string[];
  /** Free addresses live below SITES_DOMAIN and are claimed as addresses, never bound as domains. */
  sitesDomain?: string | undefined;
}

const bad = (reason: DomainInvalidReason, message: string, extra?: Record<string, unknown>) =>
  invalid('builder.domain_invalid', message, { reason, ...extra });
export const domainNotAllowed = (reason: DomainNotAllowedReason, message: string) =>
  invalid('builder.domain_not_allowed', message, { reason });

/** `name` equals `zone` or lies below it. */
export const isAtOrBelow = (name: string, zone: string) => name === zone || name.endsWith(`.${zone}`);

/** A numeric last label makes a WHATWG URL host an IPv4 address (`127.1`, `0x7f.1`, `10.0.0.010`). */
const NUMERIC_LABEL = /^(?:\d+|0x[0-9a-f]*)$/;

/**
 * The normalized custom domain (lower case, no trailing dot), or a DomainError:
 * `builder.domain_invalid` (`reason`: not a well-formed name) or `builder.domain_not_allowed`
 * (`reason`: an IP address in any notation, a non-public top-level name, the instance's own host or a
 * name below it, a name at or below SITES_DOMAIN).
 */
export function parseCustomDomain(input: string, context: CustomDomainContext): string {
  let name = input.trim();
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name === '') throw bad('empty', 'give a domain name, such as www.example.org');
  // IPv6 in any notation: hex groups and colons, maybe an embedded IPv4, a zone, URL brackets.
  if (/^\[?[0-9a-f:.]*:[0-9a-f:.]*(%[^\]]*)?\]?$/i.test(name))
    throw domainNotAllowed('ip_address', 'an IP address cannot be bound; give a domain name');
  // Services add the A-label to the details (computing it needs UTS #46, which the domain does not hold).
  if (/[^\p{ASCII}]/u.test(name))
    throw bad('unicode', 'give the name in its ASCII (punycode) form, with xn-- labels');
  name = name.toLowerCase();
  if (name.length > CUSTOM_DOMAIN_MAX_LENGTH)
    throw bad('too_long', `a domain is at most ${CUSTOM_DOMAIN_MAX_LENGTH} characters`);
  const labels = name.split('.');
  if (labels.some((l) => l === '')) throw bad('empty_label', 'a domain has no empty labels (no "..")');
  if (NUMERIC_LABEL.test(labels[labels.length - 1]!))
    throw domainNotAllowed('ip_address', 'an IP address cannot be bound; give a domain name');
  if (labels.length < 2) throw bad('single_label', 'a domain has at least two labels, such as example.org');
  for (const label of labels) {
    if (label.length > 63) throw bad('label_too_long', 'each label of a domain is at most 63 characters');
    if (!/^[a-z0-9-]+$/.test(label))
      throw bad('bad_character', 'a domain holds only letters a–z, digits, hyphens and dots');
    if (label.startsWith('-') || label.endsWith('-'))
      throw bad('hyphen_edge', 'a label neither starts nor ends with a hyphen');
    // RFC 5891 §4.2.3.1: "??--" labels are reserved; of them only xn-- (punycode) is in use.
    if (label.slice(2, 4) === '--' && !(label.startsWith('xn--') && label.length > 4))
      throw bad('reserved_label', 'labels with "--" in the third and fourth place are reserved, but xn--');
  }
  const tld = labels[labels.length - 1]!;
  if (NON_PUBLIC_TLDS.includes(tld))
    throw domainNotAllowed('non_public_tld', `.${tld} names do not resolve on the public DNS`);
  for (const host of context.instanceHosts)
    if (isAtOrBelow(name, host.toLowerCase()))
      throw domainNotAllowed('instance_host', 'the instance’s own host and names below it cannot be bound');
  const sites = context.sitesDomain?.toLowerCase();
  if (sites && isAtOrBelow(name, sites))
    throw domainNotAllowed(
      'sites_domain',
      'names at or below the free-address domain are claimed as addresses, not bound',
    );
  return name;
}
