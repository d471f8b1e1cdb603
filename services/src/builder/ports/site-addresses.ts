// What site addresses need from outside the services (docs/builder.md#addresses): their read model,
// the hold period and sites domain from configuration, and the client of the global instance's
// address registry (adapters: signed peer requests through the outbound client).

/** A label as this instance knows it, in its latest state. */
export interface SiteAddressView {
  label: string;
  siteId: string;
  /** The owner of the site holding (or last holding) it here; null for another instance's entry. */
  ownerAgentId: string | null;
  /** On the global instance, the instance holding (or last holding) it; null for our own sites. */
  instanceId: string | null;
  state: 'claimed' | 'released' | 'registered' | 'deregistered';
  claimedAt: string;
  releasedAt: string | null;
  /** Until then, after a release, only the previous owner (or instance) may take it. */
  holdUntil: string | null;
}

export interface SiteAddressReadModels {
  /** The label a site of ours holds now (state `claimed`), or null. */
  addressOfSite(siteId: string): Promise<SiteAddressView | null>;
  /** What is known here of these labels (absent ones are free: never claimed here). */
  addresses(labels: readonly string[]): Promise<SiteAddressView[]>;
  /** The host a peer instance recorded with this (global) instance's registry. */
  addressInstanceHost(instanceId: string): Promise<string | null>;
}

/**
 * The global instance's address registry, as seen from a sovereign instance. Each call is one signed
 * request; a refusal comes back as a DomainError with the global instance's own code (e.g.
 * `builder.label_taken`), an unreachable instance as an `unavailable` one.
 */
export interface SiteAddressRegistryClient {
  claim(globalBaseUrl: string, claim: { label: string; siteId: string }): Promise<void>;
  release(globalBaseUrl: string, release: { label: string; siteId: string }): Promise<void>;
  recordInstance(globalBaseUrl: string, instance: { hostname: string }): Promise<void>;
}

export interface SiteAddressPorts {
  /** ADDRESS_HOLD_DAYS: how long a released label is kept for its previous owner. */
  holdDays: number;
  /** SITES_DOMAIN: addresses are `<label>.<sitesDomain>`. */
  sitesDomain: string;
  /** Absent where this process makes no outbound calls: labels are then claimed here only. */
  registry?: SiteAddressRegistryClient | undefined;
}
