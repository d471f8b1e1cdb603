import type { AccountsOperationServices } from './accounts-operation.js';

export interface NewSession {
  sessionId: string;
  /** The cookie value: shown to the browser once, stored only as a digest. */
  token: string;
  expiresAt: string;
  record: { sessionId: string; tokenHash: string; expiresAt: string };
}

export function newSession(services: AccountsOperationServices, _accountId: string): NewSession {
  const sessionId = services.ids.entityId();
  const token = services.ids.secret(32);
  const expiresAt = new Date(
    services.clock.now().getTime() + services.config.sessionTtlSeconds * 1000,
  ).toISOString();
  return {
    sessionId,
    token,
    expiresAt,
    record: { sessionId, tokenHash: services.ids.sha256(token), expiresAt },
  };
}
