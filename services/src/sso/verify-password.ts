// svc.sso.verify_password (POST /api/federation/remote-password/verify): a signed peer asks whether an
// email-or-handle (or the agent id of a person it linked an account to) and password are right for an
// account homed here — what a delegating sovereign asks at the sign-in of a linked account. Only an
// account the asking peer has a standing with counts: one whose home it is, or one it was issued a
// sign-on assertion for (how a link is made); any other is answered as an unknown account. The answer is
// yes or one generic no (an unknown account takes as long as a wrong password: a dummy hash is checked),
// never profile data; failures spend the same password budgets as sign-in (429 auth.throttled).
import { unauthenticated } from '@tributary/domain';
import { z } from 'zod';
import { defineSsoOperation } from './sso-operation.js';
import { peerCaller } from './peer-caller.js';
import { checkLocalPassword, originOf } from './support.js';

export const verifyRemotePassword = defineSsoOperation({
  name: 'svc.sso.verify_password',
  title: 'Check a password for a peer',
  description:
    'A signed peer asks whether a password is right for an account homed here: yes, or a generic no.',
  kind: 'query',
  ownEndpoint: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({
    identifier: z.string().trim().min(1).max(254),
    password: z.string().min(1).max(200),
  }),
  output: z.object({ ok: z.literal(true) }),
  async run(ctx, input) {
    const sso = ctx.services.sso;
    const peerId = peerCaller(ctx);
    const peer = await ctx.services.federation!.read.peer(peerId);
    const peerOrigin = peer ? originOf(peer.baseUrl) : null;
    const account = await checkLocalPassword(ctx.services, input.identifier, input.password, {
      byAgentId: true,
      visibleTo: async ({ agentId }) =>
        (await sso.read.homeOf(agentId)) === peerId ||
        (!!peerOrigin && (await sso.read.issuedTo(agentId, peerOrigin))),
    });
    if (!account) throw unauthenticated('sso.password_rejected', 'no');
    return { ok: true as const };
  },
});
