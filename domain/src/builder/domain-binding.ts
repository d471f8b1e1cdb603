// Custom-domain bindings (docs/builder.md#domains). Each domain has one stream,
// `domain-<domain>`, which is both the uniqueness claim (at most one site holds a domain at a time) and
// the binding's history: bound with a challenge token, checked (verified or failed with a reason),
// unbound. All four events are private and never federate: the bound event carries the challenge
// token, and the rest would tell peers of bindings in a stream a peer could not hold under the same
// name (its own claim on the domain). Where a verified site lives is public knowledge through DNS.
import { z } from 'zod';
import { conflict, notFound } from '../shared/errors.js';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import type { NewEvent } from '../shared/envelope.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { streamAggregate } from '../shared/aggregate.js';
import { challengeRecordName } from './custom-domain.js';

export const domainStream = (domain: string) => `domain-${domain}`;

/**
 * How a binding's DNS records get created: a provider's name (`manual`: the person creates them at
 * their DNS host). Which providers exist is the instance's composition; the log only keeps the name.
 */
export const dnsProviderName = z.string().regex(/^[a-z0-9-]{1,40}$/);
export type DnsProvider = string;

export const DOMAIN_STATES = ['pending', 'verified', 'failed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/**
 * Why a check did not verify: the challenge TXT record or the CNAME/A/AAAA is absent, the TXT holds
 * another value, the name points at another host or address, or the resolver did not answer.
 */
export const DOMAIN_CHECK_REASONS = [
  'record_missing',
  'wrong_value',
  'points_elsewhere',
  'resolver_error',
] as const;
export type DomainCheckReason = (typeof DOMAIN_CHECK_REASONS)[number];

const domainName = z.string().min(1).max(253);
const isoTime = z.string().datetime({ offset: true });

export const siteDomainBound = defineEvent({
  type: 'site.domain_bound',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    domain: domainName,
    siteId: z.string(),
    ownerAgentId: z.string(),
    provider: dnsProviderName,
    /** What the TXT record `_tributary-challenge.<domain>` must hold; a secret until published in DNS. */
    challengeToken: z.string().min(16).max(200),
    /** The binding's start, for the hold below (a fold sees no envelope times). */
    boundAt: isoTime,
  }),
});
export const siteDomainVerified = defineEvent({
  type: 'site.domain_verified',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ domain: domainName, checkedAt: isoTime }),
});
export const siteDomainCheckFailed = defineEvent({
  type: 'site.domain_check_failed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    domain: domainName,
    reason: z.enum(DOMAIN_CHECK_REASONS),
    /** What was found, in words: the record looked for, the value or host seen. */
    detail: z.string().max(500),
    checkedAt: isoTime,
  }),
});
export const siteDomainUnbound = defineEvent({
  type: 'site.domain_unbound',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    domain: domainName,
    siteId: z.string(),
    /** `owner`: the owner unbound it; `replaced`: another site took over a binding that never held. */
    cause: z.enum(['owner', 'replaced']),
  }),
});

export const builderDomainEvents = [
  siteDomainBound,
  siteDomainVerified,
  siteDomainCheckFailed,
  siteDomainUnbound,
] as const satisfies readonly EventDefinition[];

export interface DomainBindingState {
  bound: boolean;
  domain?: string;
  siteId?: string;
  ownerAgentId?: string;
  provider?: DnsProvider;
  challengeToken?: string;
  state?: DomainState;
  /** Why the last check did not verify; null once a check verifies. */
  reason?: DomainCheckReason | null;
  detail?: string | null;
  boundAt?: string;
  checkedAt?: string | null;
  /** The last check that verified. */
  verifiedAt?: string | null;
}

export const initialDomainBindingState = (): DomainBindingState => ({ bound: false });

export function evolveDomainBinding(s: DomainBindingState, e: StoredEventLike): DomainBindingState {
  switch (e.type) {
    case 'site.domain_bound': {
      const d = e.data as z.infer<typeof siteDomainBound.data>;
      return {
        bound: true,
        domain: d.domain,
        siteId: d.siteId,
        ownerAgentId: d.ownerAgentId,
        provider: d.provider,
        challengeToken: d.challengeToken,
        state: 'pending',
        reason: null,
        detail: null,
        boundAt: d.boundAt,
        checkedAt: null,
        verifiedAt: null,
      };
    }
    case 'site.domain_verified': {
      const d = e.data as z.infer<typeof siteDomainVerified.data>;
      return {
        ...s,
        state: 'verified',
        reason: null,
        detail: null,
        checkedAt: d.checkedAt,
        verifiedAt: d.checkedAt,
      };
    }
    case 'site.domain_check_failed': {
      const d = e.data as z.infer<typeof siteDomainCheckFailed.data>;
      return {
        ...s,
        // The resolver not answering says nothing about the records: the state stands (a verified
        // domain stays served through our own DNS trouble), only the reason tells.
        state: d.reason === 'resolver_error' ? s.state! : 'failed',
        reason: d.reason,
        detail: d.detail,
        checkedAt: d.checkedAt,
      };
    }
    case 'site.domain_unbound':
      return { bound: false, ...(s.domain !== undefined && { domain: s.domain }) };
    default:
      return s;
  }
}

export const builderDomainAggregate = streamAggregate('domain-', {
  initial: initialDomainBindingState,
  evolve: evolveDomainBinding,
});

export interface BindDomain {
  domain: string;
  siteId: string;
  ownerAgentId: string;
  provider: DnsProvider;
  challengeToken: string;
  now: Date;
  /**
   * How long a binding of another site that has not verified (never, or not since this long) holds
   * the name before someone else may take it over: a name cannot be squatted by binding it and never
   * creating the records, yet a verified site does not lose its name to a passing DNS failure.
   */
  holdSeconds: number;
}

/** The binding holds the name against another site at `now`. */
export function bindingHolds(state: DomainBindingState, now: Date, holdSeconds: number): boolean {
  if (!state.bound) return false;
  if (state.state === 'verified') return true;
  const since = Math.max(Date.parse(state.boundAt!), state.verifiedAt ? Date.parse(state.verifiedAt) : 0);
  return now.getTime() - since < holdSeconds * 1000;
}

/**
 * Binds the domain to the site. The same site binding it again changes nothing (the records to create
 * are the same); a binding of another site — of the same owner or not — that still holds is
 * `builder.domain_taken`; one that has lapsed is replaced.
 */
export function decideBindDomain(cmd: BindDomain, state: DomainBindingState): NewEvent[] {
  const stream = domainStream(cmd.domain);
  if (state.bound && state.siteId === cmd.siteId) return [];
  if (bindingHolds(state, cmd.now, cmd.holdSeconds))
    throw conflict('builder.domain_taken', `${cmd.domain} is bound to another site`, { domain: cmd.domain });
  const events: NewEvent[] = [];
  if (state.bound)
    events.push({
      stream,
      type: 'site.domain_unbound',
      data: { domain: cmd.domain, siteId: state.siteId!, cause: 'replaced' },
    });
  events.push({
    stream,
    type: 'site.domain_bound',
    data: {
      domain: cmd.domain,
      siteId: cmd.siteId,
      ownerAgentId: cmd.ownerAgentId,
      provider: cmd.provider,
      challengeToken: cmd.challengeToken,
      boundAt: cmd.now.toISOString(),
    },
  });
  return events;
}

/** Unbinds the domain from the site; a domain not bound to it is unknown to it. */
export function decideUnbindDomain(domain: string, siteId: string, state: DomainBindingState): NewEvent[] {
  if (!state.bound || state.siteId !== siteId) throw domainNotBound(domain);
  return [
    { stream: domainStream(domain), type: 'site.domain_unbound', data: { domain, siteId, cause: 'owner' } },
  ];
}

export const domainNotBound = (domain: string) =>
  notFound('builder.domain_not_found', `${domain} is not bound to this site`, { domain });

export type DomainCheckOutcome =
  { verified: true } | { verified: false; reason: DomainCheckReason; detail: string };

/**
 * The events a check's outcome adds: only a change is recorded (a re-check that finds what the log
 * already says writes nothing), so a schedule of re-checks does not grow the log.
 */
export function decideDomainCheck(
  state: DomainBindingState,
  outcome: DomainCheckOutcome,
  checkedAt: Date,
  /** The token the lookups were judged against: a binding replaced meanwhile is not this check's. */
  forToken?: string,
): NewEvent[] {
  if (!state.bound) return [];
  if (forToken !== undefined && state.challengeToken !== forToken) return [];
  const stream = domainStream(state.domain!);
  const at = checkedAt.toISOString();
  if (outcome.verified)
    return state.state === 'verified' && !state.reason
      ? []
      : [{ stream, type: 'site.domain_verified', data: { domain: state.domain!, checkedAt: at } }];
  const nextState = outcome.reason === 'resolver_error' ? state.state : 'failed';
  if (nextState === state.state && state.reason === outcome.reason && state.detail === outcome.detail)
    return [];
  return [
    {
      stream,
      type: 'site.domain_check_failed',
      data: {
        domain: state.domain!,
        reason: outcome.reason,
        detail: outcome.detail.slice(0, 500),
        checkedAt: at,
      },
    },
  ];
}

/** One DNS lookup's answer, as the resolver port gives it. */
export type DnsLookup =
  | { kind: 'records'; records: string[] }
  /** The name or the record type does not exist (NXDOMAIN, NODATA). */
  | { kind: 'none' }
  /** No usable answer: timeout, refused, server failure. */
  | { kind: 'error'; detail: string };

/** Where a bound domain must point: the instance's site host (CNAME) or its addresses (A/AAAA). */
export interface DomainTarget {
  host: string;
  /** The instance's addresses (configured, or those `host` resolves to); an error when unknown. */
  addresses: DnsLookup;
}

export interface DomainAnswers {
  domain: string;
  challengeToken: string;
  target: DomainTarget;
  txt: DnsLookup;
  cname: DnsLookup;
  /** A and AAAA of the domain, together. */
  addresses: DnsLookup;
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');

/**
 * Judges a domain's DNS answers: the challenge TXT must hold the token, and the name must point at
 * the instance — a CNAME to the site host, or addresses (A/AAAA, or a CNAME flattened by the DNS
 * host) that are all the instance's.
 */
export function judgeDomainAnswers(a: DomainAnswers): DomainCheckOutcome {
  const txtName = challengeRecordName(a.domain);
  if (a.txt.kind === 'error')
    return { verified: false, reason: 'resolver_error', detail: `TXT ${txtName}: ${a.txt.detail}` };
  if (a.txt.kind === 'none' || a.txt.records.length === 0)
    return { verified: false, reason: 'record_missing', detail: `no TXT record at ${txtName}` };
  if (!a.txt.records.includes(a.challengeToken))
    return {
      verified: false,
      reason: 'wrong_value',
      detail: `the TXT record at ${txtName} does not hold this binding's token`,
    };
  const host = bare(a.target.host);
  if (a.cname.kind === 'records' && a.cname.records.length > 0) {
    const to = bare(a.cname.records[0]!);
    return to === host
      ? { verified: true }
      : { verified: false, reason: 'points_elsewhere', detail: `CNAME ${a.domain} → ${to}, not ${host}` };
  }
  if (a.addresses.kind === 'error')
    return { verified: false, reason: 'resolver_error', detail: `A/AAAA ${a.domain}: ${a.addresses.detail}` };
  if (a.addresses.kind === 'none' || a.addresses.records.length === 0)
    return {
      verified: false,
      reason: 'record_missing',
      detail: `no CNAME, A or AAAA record at ${a.domain}`,
    };
  if (a.target.addresses.kind === 'error')
    return {
      verified: false,
      reason: 'resolver_error',
      detail: `the instance's own addresses (${host}): ${a.target.addresses.detail}`,
    };
  const ours = new Set(a.target.addresses.kind === 'records' ? a.target.addresses.records : []);
  const elsewhere = a.addresses.records.filter((ip) => !ours.has(ip));
  return elsewhere.length === 0
    ? { verified: true }
    : {
        verified: false,
        reason: 'points_elsewhere',
        detail: `${a.domain} has addresses that are not the instance's: ${elsewhere.slice(0, 4).join(', ')}`,
      };
}

/** The data of one of the custom-domain events, by type. */
export type BuilderDomainEventData<T extends (typeof builderDomainEvents)[number]['type']> = z.infer<
  Extract<(typeof builderDomainEvents)[number], { type: T }>['data']
>;
