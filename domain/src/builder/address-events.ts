// Events of site addresses (docs/builder.md#addresses). A label is a uniqueness claim: its stream
// `address-label-<label>` exists once someone claimed it, and holds every claim and release since, so
// the hold-back after a release is decided from the stream alone. A site's own stream
// `address-site-<siteId>` says which label it holds, so two claims for one site cannot both win.
// Claims and releases are public and federable: an address is part of a public URL, and a peer that
// sees a site published can resolve where it is served. What the global registry records for other
// instances is answered by its endpoint, not federated (each instance federates its own claims).
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

const label = z.string().max(63);
const instant = z.string().max(40);

export const siteAddressClaimed = defineEvent({
  type: 'site.address_claimed',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ label, siteId: z.string(), ownerAgentId: z.string() }),
});
export const siteAddressReleased = defineEvent({
  type: 'site.address_released',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({
    label,
    siteId: z.string(),
    ownerAgentId: z.string(),
    releasedAt: instant,
    /** Until then only the same owner may claim the label again. */
    holdUntil: instant,
  }),
});
/** The site's pointer (stream `address-site-<siteId>`): the label it holds now, or null. */
export const siteAddressSet = defineEvent({
  type: 'site.address_set',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ siteId: z.string(), label: label.nullable() }),
});
/** On the global instance: a peer instance holds the label (its signed request claimed it first). */
export const siteAddressRegistered = defineEvent({
  type: 'site.address_registered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ label, instanceId: z.string(), siteId: z.string() }),
});
export const siteAddressDeregistered = defineEvent({
  type: 'site.address_deregistered',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    label,
    instanceId: z.string(),
    siteId: z.string(),
    releasedAt: instant,
    /** Until then only the same instance may register the label again. */
    holdUntil: instant,
  }),
});
/** On the global instance: the host name a peer instance serves its sites on (`address-instance-<id>`). */
export const siteAddressInstanceRecorded = defineEvent({
  type: 'site.address_instance_recorded',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ instanceId: z.string(), hostname: z.string().max(253) }),
});

export const addressEvents = [
  siteAddressClaimed,
  siteAddressReleased,
  siteAddressSet,
  siteAddressRegistered,
  siteAddressDeregistered,
  siteAddressInstanceRecorded,
] as const satisfies readonly EventDefinition[];

export type AddressEventData<T extends (typeof addressEvents)[number]['type']> = z.infer<
  Extract<(typeof addressEvents)[number], { type: T }>['data']
>;
