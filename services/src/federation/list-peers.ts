import { z } from 'zod';
import { peerOutput } from './peer-schemas.js';
import { defineFederationOperation } from './federation-operation.js';

export const listPeers = defineFederationOperation({
  name: 'svc.federation.list_peers',
  title: 'List peers',
  description: 'The registered peer instances with their keys (never their secrets).',
  kind: 'query',
  scopes: ['svc.admin'],
  enabledFor: ['session', 'token'],
  controllerOnly: true,
  actsForAgent: false,
  input: z.strictObject({}),
  output: z.object({ peers: z.array(peerOutput) }),
  async run(ctx) {
    return { peers: await ctx.services.federation.read.peers() };
  },
});
