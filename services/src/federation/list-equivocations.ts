// The evidence of peers' equivocations, for the operator: each time a peer signed two different events at
// one version of one of its streams, both envelopes exactly as received, so anyone can re-verify that the
// origin signed both (`POST /api/ops/svc.federation.equivocations`, `tributary federation equivocations`).
import { z } from 'zod';
import { defineFederationOperation } from './federation-operation.js';

/** At most this many records per page. */
export const EQUIVOCATIONS_MAX_LIMIT = 100;

const record = z.object({
  seq: z.number().describe('the record’s position, for `after`'),
  origin: z.string().describe('the peer that signed both events'),
  stream: z.string().describe('the origin’s stream'),
  streamVersion: z.number(),
  heldEventId: z.string().describe('the event imported at that version'),
  heldEnvelope: z.string().describe('its signed envelope, as received'),
  refusedEventId: z.string().describe('the other event, refused'),
  refusedEnvelope: z.string().describe('its signed envelope, as received'),
  detectedAt: z.string(),
});

export const federationEquivocations = defineFederationOperation({
  name: 'svc.federation.equivocations',
  title: 'Federation equivocations',
  description:
    'Evidence that a peer signed two different events at one version of one of its streams: both signed envelopes, oldest first.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({
    peerId: z.string().min(1).max(200).optional().describe('only this peer’s'),
    after: z.number().int().min(0).optional().describe('the `next` of the previous page'),
    limit: z.number().int().min(1).max(EQUIVOCATIONS_MAX_LIMIT).optional().describe('default 50'),
  }),
  output: z.object({ equivocations: z.array(record), next: z.number().nullable() }),
  async run(ctx, { peerId, after, limit = 50 }) {
    const rows = await ctx.services.federation.store.equivocations({
      ...(peerId !== undefined && { origin: peerId }),
      ...(after !== undefined && { after }),
      limit,
    });
    return {
      equivocations: rows.map((r) => ({ ...r, detectedAt: r.detectedAt.toISOString() })),
      next: rows.length === limit ? rows[rows.length - 1]!.seq : null,
    };
  },
});
