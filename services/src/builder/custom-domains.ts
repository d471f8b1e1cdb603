// What the custom-domain operations share (docs/builder.md#domains): the name rules with the
// public-suffix list on top of the domain's, the DNS records a binding needs, a check of those records
// through the resolver port, and the binding as operations answer it.
import {
  challengeRecordName,
  domainNotAllowed,
  invalid,
  isDomainError,
  judgeDomainAnswers,
  parseCustomDomain,
  repairDomainInput,
  wwwAliasOf,
  type DnsLookup,
  type RepairedInput,
  type DomainCheckOutcome,
} from '@tributary/domain';
import { parse as parseHost } from 'tldts';
import { z } from 'zod';
import type { DomainBindingView } from './ports/builder-read-models.js';
import type {
  CustomDomainPorts,
  CustomDomainSettings,
  DnsProviderDriver,
  DnsRecordToCreate,
} from './ports/custom-domains.js';

/** The built-in provider: the person creates the records the binding answers, at their DNS host. */
export const manualDnsProvider: DnsProviderDriver = {
  name: 'manual',
  createsRecords: false,
  createRecords: () => Promise.resolve(),
  deleteRecords: () => Promise.resolve(),
};

/**
 * A typed domain repaired (docs/builder.md#domains): scheme, path, port, case and `www.` dropped, each
 * repair recorded. A Unicode name is not rewritten: its refusal names the A-label to send, so a
 * look-alike (a Cyrillic `а` in `exаmple.com`) is never bound unnoticed.
 */
export const repairDomain = (typed: string): RepairedInput => repairDomainInput(typed);

/**
 * The normalized name to bind, or `builder.domain_invalid` / `builder.domain_not_allowed`: the
 * domain's rules, then the public-suffix list (a name that is itself a public suffix, such as `co.uk`
 * or `github.io`, is no one's to bind). `input` is what `repairDomain` made of what was typed.
 */
export function bindableDomain(input: string, settings: CustomDomainSettings): string {
  let name: string;
  try {
    name = parseCustomDomain(input, settings);
  } catch (e) {
    // The A-label of a Unicode name, so the person knows what to send (WHATWG URL applies UTS #46).
    if (isDomainError(e) && e.details?.reason === 'unicode') {
      const aLabel = aLabelOf(input.trim());
      if (aLabel)
        throw invalid('builder.domain_invalid', `${e.message}: ${aLabel}`, { ...e.details, aLabel });
    }
    throw e;
  }
  const host = parseHost(name, { allowPrivateDomains: true });
  if (host.domain === null)
    throw domainNotAllowed('public_suffix', `${name} is a public suffix: bind a name registered below it`);
  return name;
}

function aLabelOf(name: string): string | undefined {
  try {
    const host = new URL(`http://${name.replace(/\.$/, '')}/`).hostname;
    return /^[a-z0-9.-]+$/.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** A name as given to unbind or check: repaired as a binding's name was, then compared with bound names. */
export const boundName = (input: string) => repairDomain(input).value;

/** An apex (a registered name, `example.co.uk`) cannot hold a CNAME: it points with A/AAAA records. */
export const isApex = (domain: string) => parseHost(domain, { allowPrivateDomains: true }).domain === domain;

export function providerNamed(ports: CustomDomainPorts, name: string): DnsProviderDriver {
  const found = ports.providers.find((p) => p.name === name);
  if (!found)
    throw invalid('builder.dns_provider_unknown', `no DNS provider ${name} here`, {
      providers: ports.providers.map((p) => p.name),
    });
  return found;
}

/** The instance's addresses a name must point at: configured, else what the target host resolves to. */
export async function instanceAddresses(ports: CustomDomainPorts): Promise<DnsLookup> {
  const { publicAddresses, targetHost } = ports.settings;
  if (publicAddresses.length > 0) return { kind: 'records', records: [...publicAddresses] };
  return ports.resolver.addresses(targetHost);
}

/**
 * The records to create for a binding: the challenge TXT, then a CNAME to the site host (a subdomain)
 * or A/AAAA records with the instance's addresses (an apex). An apex whose addresses are not known
 * here gets an ALIAS (ANAME, CNAME flattening) to the site host, which most DNS hosts offer.
 */
export async function recordsFor(
  ports: CustomDomainPorts,
  domain: string,
  token: string,
  /** The instance's addresses, when already looked up (a list of bindings looks them up once). */
  known?: Promise<DnsLookup>,
): Promise<DnsRecordToCreate[]> {
  const records: DnsRecordToCreate[] = [
    { type: 'TXT', name: challengeRecordName(domain), value: token, purpose: 'challenge' },
  ];
  const { targetHost } = ports.settings;
  if (!isApex(domain)) {
    records.push({ type: 'CNAME', name: domain, value: targetHost, purpose: 'target' });
    return records;
  }
  const addresses = await (known ?? instanceAddresses(ports));
  const ips = addresses.kind === 'records' ? addresses.records : [];
  if (ips.length === 0) records.push({ type: 'ALIAS', name: domain, value: targetHost, purpose: 'target' });
  for (const ip of ips)
    records.push({ type: ip.includes(':') ? 'AAAA' : 'A', name: domain, value: ip, purpose: 'target' });
  // An apex is also typed with `www.`: that name is served as its alias (a redirect) once it points here.
  records.push({ type: 'CNAME', name: wwwAliasOf(domain), value: targetHost, purpose: 'alias' });
  return records;
}

/** Looks the binding's records up and judges them: verified, or the reason it is stuck. */
export async function checkDomainRecords(
  ports: CustomDomainPorts,
  domain: string,
  token: string,
): Promise<DomainCheckOutcome> {
  const r = ports.resolver;
  const [txt, cname, addresses, target] = await Promise.all([
    r.txt(challengeRecordName(domain)),
    r.cname(domain),
    r.addresses(domain),
    instanceAddresses(ports),
  ]);
  return judgeDomainAnswers({
    domain,
    challengeToken: token,
    target: { host: ports.settings.targetHost, addresses: target },
    txt,
    cname,
    addresses,
  });
}

export const dnsRecordOutput = z.object({
  type: z.enum(['TXT', 'CNAME', 'A', 'AAAA', 'ALIAS']),
  name: z.string(),
  value: z.string(),
  purpose: z
    .enum(['challenge', 'target', 'alias'])
    .describe('challenge: proves the domain is yours; target: points it here; alias: optional, www.<domain>'),
});

export const domainBindingOutput = z.object({
  domain: z.string(),
  siteId: z.string(),
  provider: z.string(),
  state: z.enum(['pending', 'verified', 'failed']).describe('served only when verified'),
  reason: z
    .enum(['record_missing', 'wrong_value', 'points_elsewhere', 'resolver_error'])
    .nullable()
    .describe('why the last check did not verify'),
  detail: z.string().nullable().describe('what the last check found, in words'),
  apex: z.boolean().describe('an apex points with A/AAAA (or ALIAS) records, a subdomain with a CNAME'),
  records: z.array(dnsRecordOutput).describe('the DNS records to create'),
  boundAt: z.string(),
  checkedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
export type DomainBindingOutput = z.infer<typeof domainBindingOutput>;

export async function bindingOutput(
  ports: CustomDomainPorts,
  b: DomainBindingView,
  known?: Promise<DnsLookup>,
): Promise<DomainBindingOutput> {
  return {
    domain: b.domain,
    siteId: b.siteId,
    provider: b.provider,
    state: b.state,
    reason: b.reason,
    detail: b.detail,
    apex: isApex(b.domain),
    records: await recordsFor(ports, b.domain, b.challengeToken, known),
    boundAt: b.boundAt,
    checkedAt: b.checkedAt,
    verifiedAt: b.verifiedAt,
  };
}
