// POST /api/federation/email/send (docs/mail.md#delegated): a registered peer asks this instance to send
// one of its templates. Peer-signed only; the links in it must point at the peer's own origin.
import { DomainError, unauthenticated } from '@tributary/domain';
import { z } from 'zod';
import { defineMailOperation } from './mail-operation.js';
import { requestMail } from './request-mail.js';

/** Loose on purpose: the checks in request-mail.ts answer each problem with its own stable code. */
export const delegatedMailInput = z.strictObject({
  requestKey: z.string().max(256),
  template: z.string().max(64),
  to: z.array(z.string().max(320)).max(100),
  variables: z.record(z.string().max(64), z.string().max(4000)).default({}),
});

export const delegatedMailAnswer = z.object({
  requestKey: z.string(),
  messageId: z.string().describe('the Message-ID the message carries, derived from the request key'),
  status: z.enum(['none', 'pending', 'sending', 'retrying', 'sent', 'failed', 'unknown']),
  delivery: z
    .enum(['smtp', 'log'])
    .describe('smtp: sent through this instance’s SMTP server; log: no SMTP configured, only logged'),
  duplicate: z.boolean().describe('this request key was already accepted: nothing new was written'),
});

export const sendDelegatedMail = defineMailOperation({
  name: 'svc.mail.send_delegated',
  title: 'Send a transactional email for a peer',
  description:
    'A registered peer asks this instance to send one of its templates (verification, sign-in link, ' +
    'notification) to at most ten recipients. Idempotent by the request key; sent once by the mail consumer.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  // POST /api/federation/email/send, peer-signed only.
  ownEndpoint: true,
  input: delegatedMailInput,
  output: delegatedMailAnswer,
  async run(ctx, input) {
    if (ctx.principal.kind !== 'peer')
      throw unauthenticated('federation.signature_required', 'only a signed peer request may ask for mail');
    const surface = ctx.services.federationSurface;
    if (!surface)
      throw new DomainError('federation.unavailable', 'unavailable', 'federation is not configured here');
    const peer = await surface.read.peerById(ctx.principal.peerId);
    if (!peer) throw unauthenticated('federation.unknown_peer', 'no registered peer holds that key');
    return requestMail(ctx, {
      requester: { kind: 'peer', peerId: ctx.principal.peerId },
      requestKey: input.requestKey,
      template: input.template,
      to: input.to,
      variables: input.variables,
      linkOrigin: peer.baseUrl,
    });
  },
});
