// The one outbound HTTP client of a process, from its configuration (docs/operations.md#outbound-http).
import { createOutboundHttp, type OutboundHttp } from '@tributary/adapters';
import type { Config } from './config/config.js';

export function outboundFromConfig(
  config: Pick<
    Config,
    | 'OUTBOUND_ALLOWED_ADDRESSES'
    | 'OUTBOUND_CONNECT_TIMEOUT_MS'
    | 'OUTBOUND_TIMEOUT_MS'
    | 'OUTBOUND_MAX_RESPONSE_BYTES'
  >,
): OutboundHttp {
  return createOutboundHttp({
    allowedAddresses: config.OUTBOUND_ALLOWED_ADDRESSES,
    connectTimeoutMs: config.OUTBOUND_CONNECT_TIMEOUT_MS,
    timeoutMs: config.OUTBOUND_TIMEOUT_MS,
    maxResponseBytes: config.OUTBOUND_MAX_RESPONSE_BYTES,
  });
}
