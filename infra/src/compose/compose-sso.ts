// Single sign-on's ports (docs/sso.md): its read models, its settings, the global instance's client and
// the log of refusals; and the remote-viewer credentials, ended by their person's authority revocation.
import { defineArea } from './area.js';
import { createSsoGlobalClient, type OutboundHttp, type RequestSigner } from '@tributary/adapters';
import { createSsoReadModels } from '@tributary/projections';
import type { Clock, RemoteViewerCredentials, SsoPorts } from '@tributary/services';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';

export function composeSso(o: {
  pool: Pool;
  config: Config;
  clock: Clock;
  outbound: OutboundHttp;
  logger: Logger;
  signer: RequestSigner;
}): SsoPorts {
  const c = o.config;
  return {
    read: createSsoReadModels(o.pool),
    assertionSeconds: c.SSO_ASSERTION_SECONDS,
    remoteViewerSeconds: c.SSO_REMOTE_VIEWER_SECONDS,
    delegation: c.SSO_DELEGATION === 'on',
    global: createSsoGlobalClient({
      signer: o.signer,
      outbound: o.outbound,
      timeoutMs: c.SSO_GLOBAL_TIMEOUT_MS,
      now: () => o.clock.now(),
    }),
    log: (entry) => o.logger.warn(entry, entry.event),
    // A real crash (SIGKILL, no cleanup) once the global instance made a delegated account.
    ...(c.NODE_ENV === 'test' &&
      c.TRIBUTARY_FAILPOINTS.includes('sso.signup.after-global') && {
        failpoints: { afterGlobalSignUp: () => process.kill(process.pid, 'SIGKILL') },
      }),
  };
}

/**
 * A credential minted from an assertion of credential version v is revoked once a revocation of its
 * person announcing a version above v has arrived (rm_sso_authority): checked on every lookup, so it
 * holds the moment the revocation is projected, in every process.
 */
export function withSsoRevocation(inner: RemoteViewerCredentials, pool: Pool): RemoteViewerCredentials {
  return {
    insert: (r) => inner.insert(r),
    revoke: (id, at) => inner.revoke(id, at),
    async byTokenHash(tokenHash) {
      const r = await inner.byTokenHash(tokenHash);
      if (!r || r.revokedAt) return r;
      const { rows } = await pool.query<{ revoked_at: Date }>(
        `SELECT a.revoked_at FROM rm_sso_sessions s JOIN rm_sso_authority a ON a.agent_id = s.agent_id
          WHERE s.credential_id = $1 AND a.credential_version > s.credential_version`,
        [r.credentialId],
      );
      return rows[0] ? { ...r, revokedAt: rows[0].revoked_at.toISOString() } : r;
    },
  };
}

export const ssoArea = defineArea((ctx) => ({
  services: { sso: composeSso({ ...ctx, signer: { keyId: ctx.signer.keyId, sign: ctx.sign } }) },
}));
