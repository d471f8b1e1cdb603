// GET /api/federation/peers: the registered peers a page at a time (registration order, at most
// PEER_PAGE_MAX; `after` the previous page's `next`; optionally one state), each with its keys (never its
// secret) and state, and every peer counted by state (peer-page.ts).
import { z } from 'zod';
import { peerOutput } from './peer-schemas.js';
import { defineFederationOperation } from './federation-operation.js';
import { PEER_STATES, pageOfPeers, peerPageInput, peerPageQuery, peerSummaryOutput } from './peer-page.js';

export const listPeers = defineFederationOperation({
  name: 'svc.federation.list_peers',
  title: 'List peers',
  description:
    'The registered peer instances with their keys (never their secrets), a page at a time in registration order, with every peer counted by state.',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject(peerPageInput),
  output: z.object({
    peers: z.array(peerOutput.extend({ state: z.enum(PEER_STATES) })),
    next: z.string().nullable().describe('give it as `after` for the next page; null on the last page'),
    summary: peerSummaryOutput,
  }),
  async run(ctx, input) {
    const read = ctx.services.federation.read;
    const q = peerPageQuery(input);
    const [rows, summary] = await Promise.all([
      read.peerPage({ ...q, limit: q.limit + 1 }),
      read.peerSummary(),
    ]);
    const { page, next } = pageOfPeers(rows, q.limit);
    return { peers: page, next, summary };
  },
});
