// The device flow's lookups that are business rules, not page logic: which pending request a typed user
// code names (only one still pending and unexpired counts), and poll pacing at the token endpoint.
import {
  fold,
  isDomainError,
  oauthDeviceStream,
  oauthError,
  type OAuthDeviceRequestedData,
  type OAuthDeviceState,
} from '@tributary/domain';
import type { OAuthOperationServices } from './oauth-operation.js';
import type { OAuthClientView } from './ports/oauth-read-models.js';
import { normalizeUserCode } from './request-device-code.js';

/** A pending request and its client, or a right code whose client cannot be used now (not a wrong guess). */
export type PendingDeviceRequest =
  | { userCode: string; deviceDigest: string; request: OAuthDeviceRequestedData; client: OAuthClientView }
  | { unusable: string };

/**
 * The pending device request a typed user code names, or undefined when it names none that is still
 * pending and unexpired (the caller counts that as a wrong code).
 */
export async function pendingDeviceRequest(
  services: OAuthOperationServices,
  raw: string | undefined,
): Promise<PendingDeviceRequest | undefined> {
  const userCode = raw ? normalizeUserCode(raw) : undefined;
  if (!userCode) return undefined;
  const deviceDigest = await services.oauth.read.oauthDeviceOfUserCode(
    services.ids.sha256(`user-code:${userCode}`),
  );
  if (!deviceDigest) return undefined;
  const stream = oauthDeviceStream(deviceDigest);
  const state = fold(
    stream,
    (await services.store.readStreams([stream])).get(stream) ?? [],
  ) as OAuthDeviceState;
  if (
    state.status !== 'pending' ||
    !state.request ||
    new Date(state.request.expiresAt) <= services.clock.now()
  )
    return undefined;
  let client;
  try {
    client = await services.oauth.clients.find(state.request.clientId);
  } catch (e) {
    // A right code whose client's metadata document cannot be used now: not a wrong guess.
    if (isDomainError(e) && e.code === 'oauth.invalid_client') return { unusable: e.message };
    throw e;
  }
  return client ? { userCode, deviceDigest, request: state.request, client } : undefined;
}

/**
 * Poll pacing (RFC 8628 §3.5): slow_down when a code is polled faster than its current interval, which
 * the answer names so a client that restarted from the advertised interval can catch up at once.
 */
export async function paceDevicePoll(
  services: OAuthOperationServices,
  deviceCode: string,
  intervalSeconds: number,
) {
  const p = await services.oauth.deviceFlow.polls.poll(
    services.ids.sha256(deviceCode),
    services.clock.now(),
    intervalSeconds,
  );
  if (p.tooFast)
    throw oauthError('slow_down', `poll at most every ${p.intervalSeconds} seconds`, {
      interval: p.intervalSeconds,
    });
}
