// The outbound side of delegation (docs/sso.md#delegation): a sovereign instance's calls to the global
// instance, each one RFC 9421-signed POST through the peer client (and so the outbound client: address
// policy, no redirects), answered within SSO_GLOBAL_TIMEOUT_MS. A refusal comes back as a DomainError
// carrying the global instance's own code; no answer in time as an `unavailable` one.
import { isDomainError } from '@tributary/domain';
import type { SsoGlobalClient } from '@tributary/services';
import { createPeerClient, peerAnswerJson, type RequestSigner } from '../federation/index.js';
import type { OutboundHttp } from '../outbound/index.js';

export const SSO_ISSUE_PATH = '/api/federation/sso/issue';
export const SSO_VERIFY_PASSWORD_PATH = '/api/federation/remote-password/verify';
export const SSO_SIGNUP_PATH = '/api/federation/signup';
export const SSO_SITE_ACCOUNTS_PATH = '/api/federation/site-accounts';

export function createSsoGlobalClient(o: {
  signer: RequestSigner;
  outbound: OutboundHttp;
  timeoutMs: number;
  now?: () => Date;
}): SsoGlobalClient {
  const limits = { timeoutMs: o.timeoutMs, connectTimeoutMs: Math.min(o.timeoutMs, 5000) };
  const outbound: OutboundHttp = {
    request: (url, r = {}) => o.outbound.request(url, { ...r, ...limits }),
    open: (url, r = {}) => o.outbound.open(url, { ...r, ...limits }),
    checkUrl: (url) => o.outbound.checkUrl(url),
    get policy() {
      return o.outbound.policy;
    },
  };
  const { post } = createPeerClient({ signer: o.signer, outbound, ...(o.now && { now: o.now }) });
  return {
    issue: async (baseUrl, body) =>
      peerAnswerJson<{ result: { assertion: string } }>(
        await post(baseUrl, SSO_ISSUE_PATH, JSON.stringify(body)),
      ).result,
    async verifyPassword(baseUrl, body) {
      try {
        peerAnswerJson<{ result: { ok: true } }>(
          await post(baseUrl, SSO_VERIFY_PASSWORD_PATH, JSON.stringify(body)),
        );
        return true;
      } catch (e) {
        if (isDomainError(e) && e.code === 'sso.password_rejected') return false;
        throw e;
      }
    },
    signUp: async (baseUrl, body) =>
      peerAnswerJson<{ result: { accountId: string; agentId: string; created: boolean } }>(
        await post(baseUrl, SSO_SIGNUP_PATH, JSON.stringify(body)),
      ).result,
    siteAccount: async (baseUrl, body) =>
      peerAnswerJson<{ result: { accountId: string; agentId: string; created: boolean } }>(
        await post(baseUrl, SSO_SITE_ACCOUNTS_PATH, JSON.stringify(body)),
      ).result,
  };
}
