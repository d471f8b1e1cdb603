// The external assistant provider's OAuth and models endpoints (docs/assistant.md#connected-account):
// RFC 8628 device authorization and polling, the refresh_token grant, RFC 7009 revocation, and OpenAI's
// `GET /v1/models` list. The client is public (a `client_id`, no secret), like a device client must be.
// Every call goes out through the guarded outbound client (address policy, no redirects, timeouts, a
// size limit). Errors never quote a token or what the provider said beyond its RFC error code.
import { domainError, isDomainError, isHttpUrl } from '@tributary/domain';
import type {
  AssistantProviderClient,
  ProviderDevicePoll,
  ProviderModel,
  ProviderTokens,
} from '@tributary/services';
import { z } from 'zod';
import type { OutboundHttp, OutboundResponse } from '../outbound/index.js';

export interface AssistantProviderSettings {
  /** What the provider is called in events and answers. */
  name: string;
  deviceUrl: string;
  tokenUrl: string;
  revokeUrl?: string | undefined;
  modelsUrl?: string | undefined;
  clientId: string;
  /** Space-separated scopes asked for; none when unset. */
  scope?: string | undefined;
}

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Provider answers are small; anything bigger is not one. */
const MAX_ANSWER_BYTES = 1024 * 1024;
/** RFC 8628 §3.2: the interval when the provider names none. */
const DEFAULT_INTERVAL_SECONDS = 5;

const deviceAnswer = z.object({
  device_code: z.string().min(1).max(4096),
  user_code: z.string().min(1).max(100),
  // Shown to the person as a link: an http(s) URL only, never `javascript:` or the like.
  verification_uri: z.string().max(2000).refine(isHttpUrl),
  verification_uri_complete: z.string().max(2000).refine(isHttpUrl).optional(),
  expires_in: z.number().int().positive().max(86_400),
  interval: z.number().int().min(1).max(3600).optional(),
});

const tokenAnswer = z.object({
  access_token: z.string().min(1).max(16_384),
  token_type: z.string().refine((t) => t.toLowerCase() === 'bearer', 'a Bearer token'),
  refresh_token: z.string().min(1).max(16_384).optional(),
  expires_in: z
    .number()
    .int()
    .positive()
    .max(10 * 365 * 86_400)
    .optional(),
  scope: z.string().max(4000).optional(),
});

const modelsAnswer = z.object({
  data: z
    .array(
      z.object({
        id: z.string().min(1).max(300),
        owned_by: z.string().max(300).optional(),
        created: z.number().int().optional(),
      }),
    )
    .max(2000),
});

/** An OAuth error code as RFC 6749 §5.2 spells them (so it is safe to repeat). */
const ERROR_CODE = /^[\x20-\x21\x23-\x5b\x5d-\x7e]{1,100}$/;

const providerError = (message: string, details: Record<string, unknown> = {}) =>
  domainError('assistant.provider_error', 'unavailable', message, details);
const reconnect = (message: string) => domainError('assistant.account_reconnect_needed', 'conflict', message);
const notConfigured = (missing: string) =>
  domainError('assistant.provider_not_configured', 'unavailable', `${missing} is not configured`, {
    missing,
  });

function json(res: OutboundResponse): unknown {
  try {
    return JSON.parse(res.text());
  } catch {
    return undefined;
  }
}

/** The RFC 6749 `error` of an answer, when it has a well-formed one. */
function oauthErrorOf(res: OutboundResponse): string | undefined {
  const body = json(res) as { error?: unknown } | undefined;
  return typeof body?.error === 'string' && ERROR_CODE.test(body.error) ? body.error : undefined;
}

function tokensOf(res: OutboundResponse): ProviderTokens {
  const parsed = tokenAnswer.safeParse(json(res));
  if (!parsed.success) throw providerError('the provider answered a token request with something unusable');
  const t = parsed.data;
  return {
    accessToken: t.access_token,
    refreshToken: t.refresh_token,
    expiresInSeconds: t.expires_in,
    scopes: t.scope ? t.scope.split(' ').filter(Boolean) : [],
  };
}

export function createAssistantProviderClient(o: {
  settings: AssistantProviderSettings;
  outbound: OutboundHttp;
}): AssistantProviderClient {
  const s = o.settings;

  /** One call out; a failure to get any answer is `assistant.provider_error` with the outbound code. */
  async function call(
    url: string,
    init: { method: 'GET' | 'POST'; form?: Record<string, string>; bearer?: string },
  ): Promise<OutboundResponse> {
    try {
      return await o.outbound.request(url, {
        method: init.method,
        headers: {
          accept: 'application/json',
          ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
          ...(init.bearer && { authorization: `Bearer ${init.bearer}` }),
        },
        ...(init.form && { body: new URLSearchParams(init.form).toString() }),
        maxResponseBytes: MAX_ANSWER_BYTES,
      });
    } catch (e) {
      if (isDomainError(e))
        throw providerError(`the provider could not be reached (${e.code})`, { reason: e.code });
      throw e;
    }
  }

  const form = (fields: Record<string, string>) => ({ ...fields, client_id: s.clientId });

  return {
    name: s.name,
    revokes: !!s.revokeUrl,
    listsModels: !!s.modelsUrl,

    async startDeviceAuthorization() {
      const res = await call(s.deviceUrl, {
        method: 'POST',
        form: form(s.scope ? { scope: s.scope } : {}),
      });
      if (res.status !== 200)
        throw providerError('the provider refused to start a device sign-in', {
          status: res.status,
          ...(oauthErrorOf(res) && { providerError: oauthErrorOf(res) }),
        });
      const parsed = deviceAnswer.safeParse(json(res));
      if (!parsed.success)
        throw providerError('the provider answered a device authorization request with something unusable');
      const d = parsed.data;
      return {
        deviceCode: d.device_code,
        userCode: d.user_code,
        verificationUri: d.verification_uri,
        verificationUriComplete: d.verification_uri_complete,
        expiresInSeconds: d.expires_in,
        intervalSeconds: d.interval ?? DEFAULT_INTERVAL_SECONDS,
      };
    },

    async pollDeviceToken(deviceCode): Promise<ProviderDevicePoll> {
      const res = await call(s.tokenUrl, {
        method: 'POST',
        form: form({ grant_type: DEVICE_GRANT, device_code: deviceCode }),
      });
      if (res.status === 200) return { kind: 'tokens', tokens: tokensOf(res) };
      const error = oauthErrorOf(res);
      if (error === 'authorization_pending') return { kind: 'pending' };
      if (error === 'slow_down') return { kind: 'slow_down' };
      if (error === 'access_denied') return { kind: 'denied' };
      if (error === 'expired_token') return { kind: 'expired' };
      throw providerError('the provider refused the device code', {
        status: res.status,
        ...(error && { providerError: error }),
      });
    },

    async refresh(refreshToken) {
      const res = await call(s.tokenUrl, {
        method: 'POST',
        form: form({ grant_type: 'refresh_token', refresh_token: refreshToken }),
      });
      if (res.status === 200) return tokensOf(res);
      const error = oauthErrorOf(res);
      // The grant is gone (revoked there, expired, rotated away): only a new sign-in helps.
      if (error === 'invalid_grant') throw reconnect('the provider no longer accepts this connection');
      throw providerError('the provider refused to refresh the access token', {
        status: res.status,
        ...(error && { providerError: error }),
      });
    },

    async revoke(token, hint) {
      if (!s.revokeUrl) throw notConfigured('ASSISTANT_PROVIDER_REVOKE_URL');
      const res = await call(s.revokeUrl, { method: 'POST', form: form({ token, token_type_hint: hint }) });
      // RFC 7009 §2.2: 200 also for a token that was already invalid.
      if (res.status !== 200)
        throw providerError('the provider refused to revoke the token', {
          status: res.status,
          ...(oauthErrorOf(res) && { providerError: oauthErrorOf(res) }),
        });
    },

    async listModels(accessToken): Promise<ProviderModel[]> {
      if (!s.modelsUrl) throw notConfigured('ASSISTANT_PROVIDER_MODELS_URL');
      const res = await call(s.modelsUrl, { method: 'GET', bearer: accessToken });
      if (res.status === 401) throw reconnect('the provider no longer accepts the access token');
      if (res.status !== 200)
        throw providerError('the provider refused to list models', { status: res.status });
      const parsed = modelsAnswer.safeParse(json(res));
      if (!parsed.success)
        throw providerError('the provider answered the models list with something unusable');
      return parsed.data.data.map((m) => ({ id: m.id, ownedBy: m.owned_by, created: m.created }));
    },
  };
}
