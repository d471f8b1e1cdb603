// The registration-time check of peer base URLs (UrlGuard port): the same scheme and address rules as
// every outbound call (outbound/outbound-http.ts), answered with the federation codes the peer registry
// documents. Calls to the peer are checked again on every connection by the outbound client itself.
import { DomainError, isDomainError, type CodeOfKind, type DomainErrorCode } from '@tributary/domain';
import type { UrlGuard } from '@tributary/services';
import type { OutboundHttp } from '../outbound/index.js';

const REGISTRY_CODES: Partial<Record<DomainErrorCode, CodeOfKind<'invalid'>>> = {
  'outbound.bad_url': 'federation.unsafe_url',
  'outbound.unsafe_url': 'federation.unsafe_url',
  'outbound.unresolvable_host': 'federation.unresolvable_url',
};

export function createUrlGuard(outbound: Pick<OutboundHttp, 'checkUrl'>): UrlGuard {
  return {
    async checkPeerUrl(raw) {
      try {
        await outbound.checkUrl(raw);
      } catch (e) {
        const code = isDomainError(e) ? REGISTRY_CODES[e.code] : undefined;
        if (!code || !isDomainError(e)) throw e;
        throw new DomainError(code, 'invalid', e.message, e.details);
      }
    },
  };
}
