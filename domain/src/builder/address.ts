// The address aggregates and deciders (docs/builder.md#addresses). A label's stream decides who holds
// it — a site of this instance, or (on the global instance) another instance — and who may take it
// back during the hold after a release; a site's pointer stream keeps one address per site. Pure: the
// time and the hold period arrive in the command.
import type { NewEvent } from '../shared/envelope.js';
import { conflict, notFound } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AddressEventData as EventData } from './address-events.js';

export const addressLabelStream = (label: string) => `address-label-${label}`;
export const addressSiteStream = (siteId: string) => `address-site-${siteId}`;
export const addressInstanceStream = (instanceId: string) => `address-instance-${instanceId}`;

/** Who holds a label: a site here, or another instance (a global-registry entry). */
export type AddressHolder =
  | { kind: 'site'; siteId: string; ownerAgentId: string }
  | { kind: 'instance'; instanceId: string; siteId: string };

export interface AddressLabelState {
  holder: AddressHolder | null;
  /** The last release, while it matters: only `previous`'s owner (or instance) may claim before `holdUntil`. */
  released?: { previous: AddressHolder; holdUntil: string } | undefined;
}
export const initialAddressLabelState = (): AddressLabelState => ({ holder: null });

export function evolveAddressLabel(state: AddressLabelState, event: StoredEventLike): AddressLabelState {
  switch (event.type) {
    case 'site.address_claimed': {
      const d = event.data as EventData<'site.address_claimed'>;
      return { holder: { kind: 'site', siteId: d.siteId, ownerAgentId: d.ownerAgentId } };
    }
    case 'site.address_released': {
      const d = event.data as EventData<'site.address_released'>;
      return {
        holder: null,
        released: {
          previous: { kind: 'site', siteId: d.siteId, ownerAgentId: d.ownerAgentId },
          holdUntil: d.holdUntil,
        },
      };
    }
    case 'site.address_registered': {
      const d = event.data as EventData<'site.address_registered'>;
      return { holder: { kind: 'instance', instanceId: d.instanceId, siteId: d.siteId } };
    }
    case 'site.address_deregistered': {
      const d = event.data as EventData<'site.address_deregistered'>;
      return {
        holder: null,
        released: {
          previous: { kind: 'instance', instanceId: d.instanceId, siteId: d.siteId },
          holdUntil: d.holdUntil,
        },
      };
    }
    default:
      return state;
  }
}

/** A site's pointer: the label it holds now. */
export interface AddressSiteState {
  label: string | null;
}
export const initialAddressSiteState = (): AddressSiteState => ({ label: null });
export function evolveAddressSite(state: AddressSiteState, event: StoredEventLike): AddressSiteState {
  if (event.type !== 'site.address_set') return state;
  return { label: (event.data as EventData<'site.address_set'>).label };
}

/** The host name another instance recorded with the global registry. */
export interface AddressInstanceState {
  hostname: string | null;
}
export const initialAddressInstanceState = (): AddressInstanceState => ({ hostname: null });
export function evolveAddressInstance(
  state: AddressInstanceState,
  event: StoredEventLike,
): AddressInstanceState {
  if (event.type !== 'site.address_instance_recorded') return state;
  return { hostname: (event.data as EventData<'site.address_instance_recorded'>).hostname };
}

const sameClaimant = (a: AddressHolder, b: AddressHolder): boolean =>
  a.kind === 'site' && b.kind === 'site'
    ? a.ownerAgentId === b.ownerAgentId
    : a.kind === 'instance' && b.kind === 'instance' && a.instanceId === b.instanceId;

const holdUntilOf = (now: Date, holdDays: number) => new Date(now.getTime() + holdDays * 86_400_000);

/**
 * Refuses a label someone else holds (`builder.label_taken`), or one released less than the hold
 * period ago by someone else (`builder.label_held`, with `holdUntil`): links others still use never
 * lead to a stranger's site. The previous owner (or instance) may take it back within the hold.
 */
function requireLabelAvailable(label: string, state: AddressLabelState, claimant: AddressHolder, now: Date) {
  if (state.holder) throw conflict('builder.label_taken', `the address ${label} is taken`, { label });
  const r = state.released;
  if (r && now.getTime() < Date.parse(r.holdUntil) && !sameClaimant(r.previous, claimant))
    throw conflict('builder.label_held', `the address ${label} was released recently and is held back`, {
      label,
      holdUntil: r.holdUntil,
    });
}

export interface ClaimAddress {
  label: string;
  siteId: string;
  ownerAgentId: string;
  now: Date;
}

/**
 * A site claims a label: the claim on the label's stream and the site's pointer, together. One address
 * per site: a site holding another is refused (`builder.site_has_address`: release it first); claiming
 * the one it holds changes nothing.
 */
export function decideClaimAddress(
  cmd: ClaimAddress,
  state: { label: AddressLabelState; site: AddressSiteState },
): NewEvent[] {
  if (state.site.label === cmd.label) return [];
  if (state.site.label !== null)
    throw conflict('builder.site_has_address', 'this site has an address; release it first', {
      label: state.site.label,
    });
  requireLabelAvailable(
    cmd.label,
    state.label,
    { kind: 'site', siteId: cmd.siteId, ownerAgentId: cmd.ownerAgentId },
    cmd.now,
  );
  return [
    {
      stream: addressLabelStream(cmd.label),
      type: 'site.address_claimed',
      data: { label: cmd.label, siteId: cmd.siteId, ownerAgentId: cmd.ownerAgentId },
    },
    {
      stream: addressSiteStream(cmd.siteId),
      type: 'site.address_set',
      data: { siteId: cmd.siteId, label: cmd.label },
    },
  ];
}

export interface ReleaseAddress {
  /** The label the caller found the site holding; the pointer must still say so. */
  label: string;
  siteId: string;
  ownerAgentId: string;
  now: Date;
  holdDays: number;
}

/** A site gives its label up; the label is then held back for the owner for `holdDays`. */
export function decideReleaseAddress(
  cmd: ReleaseAddress,
  state: { label: AddressLabelState; site: AddressSiteState },
): NewEvent[] {
  const h = state.label.holder;
  if (
    state.site.label !== cmd.label ||
    !h ||
    h.kind !== 'site' ||
    h.siteId !== cmd.siteId ||
    h.ownerAgentId !== cmd.ownerAgentId
  )
    throw notFound('builder.address_not_found', 'this site has no address');
  return [
    {
      stream: addressLabelStream(cmd.label),
      type: 'site.address_released',
      data: {
        label: cmd.label,
        siteId: cmd.siteId,
        ownerAgentId: cmd.ownerAgentId,
        releasedAt: cmd.now.toISOString(),
        holdUntil: holdUntilOf(cmd.now, cmd.holdDays).toISOString(),
      },
    },
    {
      stream: addressSiteStream(cmd.siteId),
      type: 'site.address_set',
      data: { siteId: cmd.siteId, label: null },
    },
  ];
}

export interface RegisterAddress {
  label: string;
  instanceId: string;
  siteId: string;
  now: Date;
}

/**
 * The global registry: an instance holds a label, first come by signed request. The same instance
 * claiming it again changes nothing (or records its new site); one this instance's own sites hold, or
 * another instance's, is taken.
 */
export function decideRegisterAddress(cmd: RegisterAddress, state: AddressLabelState): NewEvent[] {
  const h = state.holder;
  if (h?.kind === 'instance' && h.instanceId === cmd.instanceId && h.siteId === cmd.siteId) return [];
  if (!(h?.kind === 'instance' && h.instanceId === cmd.instanceId))
    requireLabelAvailable(
      cmd.label,
      state,
      { kind: 'instance', instanceId: cmd.instanceId, siteId: cmd.siteId },
      cmd.now,
    );
  return [
    {
      stream: addressLabelStream(cmd.label),
      type: 'site.address_registered',
      data: { label: cmd.label, instanceId: cmd.instanceId, siteId: cmd.siteId },
    },
  ];
}

export interface DeregisterAddress {
  label: string;
  instanceId: string;
  now: Date;
  holdDays: number;
}

/** The holding instance gives a label up; nobody else can (`builder.address_not_found`). */
export function decideDeregisterAddress(cmd: DeregisterAddress, state: AddressLabelState): NewEvent[] {
  const h = state.holder;
  if (!h || h.kind !== 'instance' || h.instanceId !== cmd.instanceId)
    throw notFound('builder.address_not_found', 'this instance holds no such address', { label: cmd.label });
  return [
    {
      stream: addressLabelStream(cmd.label),
      type: 'site.address_deregistered',
      data: {
        label: cmd.label,
        instanceId: cmd.instanceId,
        siteId: h.siteId,
        releasedAt: cmd.now.toISOString(),
        holdUntil: holdUntilOf(cmd.now, cmd.holdDays).toISOString(),
      },
    },
  ];
}

/** The host an instance serves its sites on, as the global registry keeps it; the same one is no event. */
export function decideRecordInstanceHost(
  cmd: { instanceId: string; hostname: string },
  state: AddressInstanceState,
): NewEvent[] {
  if (state.hostname === cmd.hostname) return [];
  return [
    {
      stream: addressInstanceStream(cmd.instanceId),
      type: 'site.address_instance_recorded',
      data: { instanceId: cmd.instanceId, hostname: cmd.hostname },
    },
  ];
}
