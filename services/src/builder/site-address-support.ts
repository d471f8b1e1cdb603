// What the address operations share (docs/builder.md#addresses): the instance's own reserved names,
// the address URLs, the global registry this instance claims its labels with, and how that registry's
// answers become our errors.
import type { DomainError } from '@tributary/domain';
import {
  addressLabelStream,
  addressSiteStream,
  conflict,
  decideClaimAddress,
  domainError,
  GLOBAL_ROLE,
  isGlobalInstance,
  instanceReservedLabels,
  invalid,
  isDomainError,
  type AddressLabelState,
  type AddressSiteState,
  type NewEvent,
} from '@tributary/domain';
import { z } from 'zod';
import type { BuilderOperationContext } from './builder-operation.js';
import type { BuilderOperationServices } from './builder-operation.js';
import type { SiteAddressPorts, SiteAddressRegistryClient, SiteAddressView } from './ports/site-addresses.js';

/** A label as input: long enough to answer builder.label_invalid (too_long) rather than a schema error. */
export const addressLabelInput = z.string().max(253);

export const addressPortsOf = (services: BuilderOperationServices): SiteAddressPorts =>
  services.builder.addresses;

/**
 * The labels this instance keeps for itself besides the fixed list: its name, its primary agent's
 * handle, and the labels of its own host and of its sites domain.
 */
export async function instanceReservedLabelsOf(ctx: BuilderOperationContext): Promise<Set<string>> {
  const primary = await ctx.services.agents.read.agent(ctx.instance.primaryAgentId);
  return instanceReservedLabels({
    name: ctx.instance.name,
    handle: primary?.handle,
    hosts: [new URL(ctx.instance.baseUrl).hostname, addressPortsOf(ctx.services).sitesDomain],
  });
}

/**
 * Where a label is served: `<label>.<SITES_DOMAIN>` with BASE_URL's scheme and port (the same server
 * answers both), and `/sites/<label>/` on the instance itself.
 */
export function addressUrls(ctx: BuilderOperationContext, label: string): { url: string; pathUrl: string } {
  const base = new URL(ctx.instance.baseUrl);
  const port = base.port ? `:${base.port}` : '';
  return {
    url: `${base.protocol}//${label}.${addressPortsOf(ctx.services).sitesDomain}${port}/`,
    pathUrl: `${ctx.instance.baseUrl.replace(/\/+$/, '')}/sites/${label}/`,
  };
}

export const siteAddressOutput = z.object({
  label: z.string(),
  siteId: z.string(),
  /** `<scheme>://<label>.<SITES_DOMAIN>[:port]/`. */
  url: z.string(),
  /** `<BASE_URL>/sites/<label>/`. */
  pathUrl: z.string(),
  claimedAt: z.string(),
});

/** The address as the builder operations answer it. */
export function addressOutput(ctx: BuilderOperationContext, a: SiteAddressView) {
  return { label: a.label, siteId: a.siteId, ...addressUrls(ctx, a.label), claimedAt: a.claimedAt };
}

export interface GlobalRegistry {
  client: SiteAddressRegistryClient;
  peerId: string;
  baseUrl: string;
}

/**
 * The global instance this one claims its labels with: a registered, unblocked peer whose role is
 * `global`. None on the global instance itself (its registry is its own log), where nothing federates,
 * or where this process makes no outbound calls.
 */
export async function globalRegistryOf(ctx: BuilderOperationContext): Promise<GlobalRegistry | null> {
  if (isGlobalInstance(ctx.instance.role)) return null;
  const client = addressPortsOf(ctx.services).registry;
  const federation = ctx.services.federation;
  if (!client || !federation) return null;
  const global = (await federation.read.peers()).find((p) => p.role === GLOBAL_ROLE && !p.blocked);
  return global ? { client, peerId: global.peerId, baseUrl: global.baseUrl } : null;
}

/** Per process: the (global, host) pairs already recorded, so the host is sent once, before a first claim. */
const recordedHosts = new WeakMap<BuilderOperationServices, Set<string>>();

/**
 * Tells the global instance the host this instance serves its sites on, once per process. Not a
 * condition of claiming: a refusal or an outage here leaves the claim itself to decide, and the next
 * claim tries again.
 */
export async function recordHostOnce(ctx: BuilderOperationContext, g: GlobalRegistry): Promise<void> {
  const hostname = new URL(ctx.instance.baseUrl).hostname;
  const key = `${g.peerId} ${hostname}`;
  let done = recordedHosts.get(ctx.services);
  if (!done) recordedHosts.set(ctx.services, (done = new Set()));
  if (done.has(key)) return;
  try {
    await g.client.recordInstance(g.baseUrl, { hostname });
    done.add(key);
  } catch {
    /* the claim that follows reports what matters */
  }
}

/**
 * The global instance's refusal as ours: a label it holds for another instance (or holds back) is
 * taken here too, a label it reserves is invalid; anything else — unreachable, a timeout, our key
 * unknown to it — means the claim could not be confirmed: 503, and nothing is written here.
 */
export function registryError(e: unknown, label: string): DomainError {
  const code = isDomainError(e) ? e.code : undefined;
  if (code === 'builder.label_taken')
    return conflict('builder.label_taken', `the address ${label} is taken on the global instance`, {
      label,
      where: 'global',
    });
  if (code === 'builder.label_held')
    return conflict('builder.label_held', `the address ${label} is held back on the global instance`, {
      label,
      where: 'global',
    });
  if (code === 'builder.label_invalid')
    return invalid('builder.label_invalid', `the global instance reserves the address ${label}`, {
      reason: 'reserved',
      label,
      where: 'global',
    });
  return domainError(
    'builder.address_registry_unavailable',
    'unavailable',
    'the global instance could not confirm the address; nothing was changed',
    {
      label,
      remoteCode: code ?? null,
      ...(isDomainError(e) &&
        typeof e.details?.retryAfter === 'number' && { retryAfter: e.details.retryAfter }),
    },
  );
}

/** A label the global instance refused (rather than could not be asked about): another one may do. */
export const isRefusalOfLabel = (e: unknown) =>
  isDomainError(e) &&
  (e.code === 'builder.label_taken' || e.code === 'builder.label_held' || e.code === 'builder.label_invalid');

/** Claims the label at the global instance; its refusal, or its silence, as ours (`registryError`). */
export async function claimAtGlobal(g: GlobalRegistry, claim: { label: string; siteId: string }) {
  try {
    await g.client.claim(g.baseUrl, claim);
  } catch (e) {
    throw registryError(e, claim.label);
  }
}

/**
 * After a claim the global instance accepted failed here (a site of ours took the label meanwhile, or
 * the site claimed another one), the label is given back there unless a site of ours holds it now.
 * Best effort: a refusal or an outage leaves the label registered to this instance, where only our own
 * sites can claim it.
 */
export async function giveBackAtGlobal(
  ctx: BuilderOperationContext,
  g: GlobalRegistry,
  claim: { label: string; siteId: string },
): Promise<void> {
  const [now] = await ctx.services.builder.read.addresses([claim.label]);
  if (now?.state !== 'claimed') await g.client.release(g.baseUrl, claim).catch((): void => undefined);
}

/** Whether `a` keeps its label from this owner now: held by anyone, or held back for someone else. */
export function unavailableTo(a: SiteAddressView | undefined, ownerAgentId: string, now: Date): boolean {
  if (!a) return false;
  if (a.state === 'claimed' || a.state === 'registered') return true;
  const holding = a.holdUntil !== null && now.getTime() < Date.parse(a.holdUntil);
  return holding && !(a.state === 'released' && a.ownerAgentId === ownerAgentId);
}

/** The streams a claim is decided on: the label's claim stream and the site's pointer. */
export const claimStreams = (claim: { label: string; siteId: string }) => [
  addressLabelStream(claim.label),
  addressSiteStream(claim.siteId),
];

/** The events of the acting owner's site claiming a label, given the states of `claimStreams`. */
export function decideClaimIn(
  ctx: BuilderOperationContext,
  claim: { label: string; siteId: string },
  states: Map<string, unknown>,
): NewEvent[] {
  const [labelStream, siteStream] = claimStreams(claim);
  return decideClaimAddress(
    { ...claim, ownerAgentId: ctx.actor.agentId, now: ctx.now },
    {
      label: states.get(labelStream!) as AddressLabelState,
      site: states.get(siteStream!) as AddressSiteState,
    },
  );
}

/** A label stream another writer claimed first is a taken label (docs/architecture.md#pipeline, step 9). */
export async function withAddressConflicts<T>(label: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (
      isDomainError(e) &&
      e.code === 'log.stream_conflict' &&
      String(e.details?.stream ?? '').startsWith('address-label-')
    )
      throw conflict('builder.label_taken', `the address ${label} is taken`, { label });
    throw e;
  }
}
