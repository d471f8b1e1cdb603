// The custom-domain part of the builder's ports (docs/builder.md#domains): a DNS resolver to
// verify bindings with, the DNS providers records can be created through, and the settings that say
// where a bound name must point.
import type { DnsLookup } from '@tributary/domain';

/**
 * Looks names up on the configured resolvers (DNS_RESOLVERS). A name or type that does not exist is
 * `none`; a resolver that does not answer usefully (timeout, refused, server failure) is `error`.
 */
export interface DnsResolver {
  /** TXT records, each one's character-strings joined. */
  txt(name: string): Promise<DnsLookup>;
  /** The CNAME target (one hop, as the zone holds it). */
  cname(name: string): Promise<DnsLookup>;
  /** A and AAAA addresses together. */
  addresses(name: string): Promise<DnsLookup>;
}

/** One DNS record a binding needs, as the person (or a provider's API) creates it. */
export interface DnsRecordToCreate {
  type: 'TXT' | 'CNAME' | 'A' | 'AAAA' | 'ALIAS';
  /** The record's owner name (fully qualified, no trailing dot). */
  name: string;
  value: string;
  /** `challenge`: proves control of the name; `target`: sends its visitors here. */
  /** `alias`: optional, so `www.<apex>` reaches the site too (redirected to the apex). */
  purpose: 'challenge' | 'target' | 'alias';
}

/**
 * A DNS provider: how a binding's records come to exist. `manual` (the person creates them at their
 * DNS host) is built in; a provider with an API is an implementation of this interface composed in
 * infra/src/compose/compose-builder.ts, its calls out going through the outbound HTTP client.
 */
export interface DnsProviderDriver {
  /** The name `provider` selects, lower-case (`manual`, `cloudflare`, …). */
  name: string;
  /** What the person is told to do with the records: `manual` lists them; an API provider says done. */
  createsRecords: boolean;
  /** Creates the records (an API provider); `manual` does nothing. Errors are reported, not thrown. */
  createRecords(domain: string, records: readonly DnsRecordToCreate[]): Promise<void>;
  /** Removes what createRecords made, on unbind. */
  deleteRecords(domain: string, records: readonly DnsRecordToCreate[]): Promise<void>;
}

export interface CustomDomainSettings {
  /** The instance's own host names (BASE_URL's): never bindable, nor names below them. */
  instanceHosts: readonly string[];
  /** Free addresses live below it; names at or below it are not bindable. */
  sitesDomain: string;
  /** What a subdomain's CNAME must name (DOMAIN_CNAME_TARGET, else BASE_URL's host). */
  targetHost: string;
  /**
   * The instance's public addresses an apex name's A/AAAA must hold (SITES_PUBLIC_IPV4/IPV6); when
   * none is configured, the addresses `targetHost` resolves to.
   */
  publicAddresses: readonly string[];
  /** How long a binding that has not verified holds its name against other sites (DOMAIN_CLAIM_HOLD_SECONDS). */
  holdSeconds: number;
}

export interface CustomDomainPorts {
  resolver: DnsResolver;
  providers: readonly DnsProviderDriver[];
  settings: CustomDomainSettings;
}
