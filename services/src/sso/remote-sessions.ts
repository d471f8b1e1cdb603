// A person's own single-sign-on actions (docs/sso.md#your-remote-sessions): list the assertions issued
// for them here and the sign-ons accepted here for them, and end their remote sessions everywhere — an
// authority revocation that federates, so every peer it reaches ends the credentials it minted for them
// and refuses assertions of the older credential version.
import { decideRevokeAuthority, ssoAuthorityStream, type SsoAuthorityState } from '@tributary/domain';
import { z } from 'zod';
import { defineSsoOperation } from './sso-operation.js';

const LIST_LIMIT = 100;

export const listRemoteSessions = defineSsoOperation({
  name: 'svc.sso.list_remote_sessions',
  title: 'List your remote sessions',
  description:
    'The sign-on assertions issued for you here (where they were for, until when) and the visits to this instance signed on for you (their remote-viewer credentials and whether they still hold), newest first, at most 100 each.',
  kind: 'query',
  actsForAgent: false,
  remoteViewer: 'read',
  scopes: ['svc.sso.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({}),
  output: z.object({
    credentialVersion: z.number().int(),
    issued: z.array(
      z.object({
        nonce: z.string(),
        audience: z.string(),
        credentialVersion: z.number().int(),
        issuedAt: z.string(),
        expiresAt: z.string(),
      }),
    ),
    visits: z.array(
      z.object({
        credentialId: z.string(),
        home: z.string(),
        acceptedAt: z.string(),
        expiresAt: z.string(),
        endedAt: z.string().nullable(),
      }),
    ),
  }),
  async run(ctx) {
    const sso = ctx.services.sso;
    const agentId = ctx.actor.agentId;
    const [credentialVersion, issued, sessions] = await Promise.all([
      sso.read.credentialVersion(agentId),
      sso.read.issued(agentId, LIST_LIMIT),
      sso.read.sessions(agentId, LIST_LIMIT),
    ]);
    return {
      credentialVersion,
      issued,
      visits: sessions.map((s) => ({
        credentialId: s.credentialId,
        home: s.home,
        acceptedAt: s.acceptedAt,
        expiresAt: s.expiresAt,
        endedAt: s.endedAt,
      })),
    };
  },
});

export const endRemoteSessions = defineSsoOperation({
  name: 'svc.sso.end_remote_sessions',
  title: 'End your remote sessions everywhere',
  description:
    'Revokes your sign-on authority: every instance you visited with single sign-on ends the remote-viewer credentials it minted for you as soon as the revocation reaches it through the federation feed, and assertions issued before it are refused.',
  kind: 'command',
  actsForAgent: false,
  scopes: ['svc.sso.write'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({}),
  output: z.object({ credentialVersion: z.number().int(), revokedAt: z.string() }),
  async run(ctx) {
    const agentId = ctx.actor.agentId;
    const stream = ssoAuthorityStream(agentId);
    const revokedAt = ctx.services.clock.now().toISOString();
    let credentialVersion = 0;
    await ctx.commit([stream], (states) => {
      const events = decideRevokeAuthority({ agentId, revokedAt }, states.get(stream) as SsoAuthorityState);
      credentialVersion = (events[0]!.data as { credentialVersion: number }).credentialVersion;
      return events;
    });
    return { credentialVersion, revokedAt };
  },
});
