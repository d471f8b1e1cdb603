// svc.sso.accept_assertion (GET /api/federation/sso/land, POST /api/federation/remote-auth): a visitor's
// assertion, verified in the stated order, burns its nonce on its own stream — once per (issuer, nonce),
// across processes and restarts, since the log refuses a second event there — and only then is a
// remote-viewer credential minted for the visitor's local agent (docs/sso.md#verification).
import { decideAcceptAssertion, isDomainError, ssoNonceStream, type SsoNonceState } from '@tributary/domain';
import { z } from 'zod';
import { mintRemoteViewerCredential } from '../assistant/index.js';
import { defineSsoOperation } from './sso-operation.js';
import { assertionRejected, verifyAssertion } from './support.js';

export const acceptAssertion = defineSsoOperation({
  name: 'svc.sso.accept_assertion',
  title: 'Accept a sign-on assertion',
  description:
    'Verifies a sign-on assertion for this instance, burns its nonce and mints a read-only remote-viewer credential.',
  kind: 'command',
  public: true,
  ownEndpoint: true,
  scopes: [],
  enabledFor: [],
  input: z.strictObject({ assertion: z.unknown() }),
  async run(ctx, input) {
    const { services } = ctx;
    const sso = services.sso;
    const { claims, localAgentId } = await verifyAssertion(ctx, input.assertion);
    const credentialId = services.ids.eventId();
    const lifetime = sso.remoteViewerSeconds;
    const expiresAt = new Date(services.clock.now().getTime() + lifetime * 1000).toISOString();
    const once = ssoNonceStream(claims.iss.instanceId, claims.nonce);
    try {
      await ctx.commit(
        [once],
        (states) =>
          decideAcceptAssertion(
            {
              issuerInstanceId: claims.iss.instanceId,
              nonce: claims.nonce,
              subject: claims.sub,
              agentId: localAgentId,
              home: claims.home,
              credentialId,
              credentialVersion: claims.cv,
              expiresAt,
            },
            states.get(once) as SsoNonceState,
          ),
        { actorId: localAgentId },
      );
    } catch (e) {
      // Used before, or used at this moment by another request: the loser's append finds the stream taken.
      if (isDomainError(e) && (e.code === 'sso.assertion_replayed' || e.code === 'log.stream_conflict'))
        throw assertionRejected(services, 'replayed', { nonce: claims.nonce });
      throw e;
    }
    const minted = await mintRemoteViewerCredential(services, {
      agentId: localAgentId,
      home: claims.home,
      lifetimeSeconds: lifetime,
      credentialId,
    });
    return {
      token: minted.token,
      credentialId,
      expiresAt: minted.expiresAt,
      agentId: localAgentId,
      home: claims.home,
    };
  },
});
