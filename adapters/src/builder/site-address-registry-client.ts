// The outbound side of the global address registry (docs/federation.md#site-address-registry): each
// call is one RFC 9421-signed POST to the global instance through the peer client (and so the outbound
// client: address policy, no redirects, timeouts). A refusal comes back as a DomainError carrying the
// global instance's own code; an unreachable instance as `federation.peer_unreachable` (unavailable).
import type { SiteAddressRegistryClient } from '@tributary/services';
import { createPeerClient, peerAnswerJson, type RequestSigner } from '../federation/index.js';
import type { OutboundHttp } from '../outbound/index.js';

export const SITE_ADDRESSES_PATH = '/api/federation/site-addresses';
export const SITE_ADDRESS_INSTANCES_PATH = '/api/federation/site-addresses/instances';

export function createSiteAddressRegistryClient(o: {
  signer: RequestSigner;
  outbound: OutboundHttp;
  now?: () => Date;
}): SiteAddressRegistryClient {
  const { post } = createPeerClient(o);
  const send = async (baseUrl: string, path: string, body: unknown) => {
    peerAnswerJson(await post(baseUrl, path, JSON.stringify(body)));
  };
  return {
    claim: (baseUrl, { label, siteId }) =>
      send(baseUrl, SITE_ADDRESSES_PATH, { action: 'claim', label, siteId }),
    release: (baseUrl, { label, siteId }) =>
      send(baseUrl, SITE_ADDRESSES_PATH, { action: 'release', label, siteId }),
    recordInstance: (baseUrl, { hostname }) => send(baseUrl, SITE_ADDRESS_INSTANCES_PATH, { hostname }),
  };
}
