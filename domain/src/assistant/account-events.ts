// The connected external-assistant account (docs/assistant.md#connected-account): a person (or one of
// their personas) signs in at an external OpenAI-compatible provider with the device flow (RFC 8628) and
// the instance then holds that account's tokens. The events say what happened and never carry a secret:
// the tokens and the device code live encrypted in their own table (infra), never in the log. Private:
// never on the feed, never federated. Stream `aaccount-<agentId>`.
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';

const isoTime = z.string().datetime({ offset: true });

/** What a provider is called in events and answers (ASSISTANT_PROVIDER_NAME, else its token URL's host). */
const providerName = z.string().min(1).max(200);

export const assistantAccountSignInStarted = defineEvent({
  type: 'assistant.account_sign_in_started',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    signInId: z.string(),
    provider: providerName,
    /** When the provider's device code stops being redeemable. */
    expiresAt: isoTime,
  }),
});

/** A sign-in that ended without an account: the person refused it at the provider, or it ran out. */
export const assistantAccountSignInEnded = defineEvent({
  type: 'assistant.account_sign_in_ended',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ signInId: z.string(), outcome: z.enum(['denied', 'expired']) }),
});

export const assistantAccountConnected = defineEvent({
  type: 'assistant.account_connected',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    signInId: z.string(),
    provider: providerName,
    accountLabel: z.string().max(200).optional(),
    /** The scopes the provider granted (its token answer's `scope`), sorted. */
    scopes: z.array(z.string().max(200)).max(100),
    /** When the access token expires (it is refreshed before then); absent when the provider did not say. */
    expiresAt: isoTime.optional(),
    connectedAt: isoTime,
  }),
});

export const assistantAccountRefreshed = defineEvent({
  type: 'assistant.account_refreshed',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ expiresAt: isoTime.optional(), refreshedAt: isoTime }),
});

/**
 * The account is gone from this instance (its ciphertext deleted). `revocation` says what the provider
 * was told: `revoked` (RFC 7009, it answered 200), `not_offered` (no revocation endpoint is configured),
 * `failed` (it could not be reached or refused; the tokens are forgotten here all the same).
 */
export const assistantAccountDisconnected = defineEvent({
  type: 'assistant.account_disconnected',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ revocation: z.enum(['revoked', 'not_offered', 'failed']) }),
});

export const assistantAccountEvents = [
  assistantAccountSignInStarted,
  assistantAccountSignInEnded,
  assistantAccountConnected,
  assistantAccountRefreshed,
  assistantAccountDisconnected,
] as const satisfies readonly EventDefinition[];

export type AssistantAccountConnectedData = z.infer<typeof assistantAccountConnected.data>;
export type AssistantAccountDisconnectedData = z.infer<typeof assistantAccountDisconnected.data>;
