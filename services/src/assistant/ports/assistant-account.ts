// The connected external-assistant account's ports (docs/assistant.md#connected-account): the external
// provider's OAuth endpoints (device authorization, token, revocation, models), and where the account's
// secrets are kept — encrypted, in a table of their own, under a key that is not in the database.
// Secrets cross these interfaces in plain text only in memory; nothing here is ever logged or returned.
import type { LanguageModel } from './language-model.js';

/** RFC 8628 §3.2: what the provider answered a device authorization request. */
export interface ProviderDeviceAuthorization {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete?: string | undefined;
  expiresInSeconds: number;
  /** The polling interval the provider asks for (RFC 8628 default 5 s). */
  intervalSeconds: number;
}

/** A token answer (RFC 6749 §5.1). */
export interface ProviderTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  expiresInSeconds?: number | undefined;
  scopes: string[];
}

/** RFC 8628 §3.5: one poll's outcome. */
export type ProviderDevicePoll =
  | { kind: 'pending' }
  | { kind: 'slow_down' }
  | { kind: 'denied' }
  | { kind: 'expired' }
  | { kind: 'tokens'; tokens: ProviderTokens };

export interface ProviderModel {
  id: string;
  ownedBy?: string | undefined;
  created?: number | undefined;
}

/**
 * The external OpenAI-compatible provider. Every call goes out through the guarded outbound client.
 * Failures are DomainErrors: `assistant.provider_error` (unreachable, unusable answer),
 * `assistant.account_reconnect_needed` (a refresh token or access token refused),
 * `assistant.provider_not_configured` (the endpoint a call needs is not configured).
 */
export interface AssistantProviderClient {
  /** What events and answers call it. */
  readonly name: string;
  /** Whether a revocation endpoint (RFC 7009) is configured. */
  readonly revokes: boolean;
  /** Whether a models endpoint is configured. */
  readonly listsModels: boolean;
  startDeviceAuthorization(): Promise<ProviderDeviceAuthorization>;
  pollDeviceToken(deviceCode: string): Promise<ProviderDevicePoll>;
  refresh(refreshToken: string): Promise<ProviderTokens>;
  revoke(token: string, hint: 'access_token' | 'refresh_token'): Promise<void>;
  listModels(accessToken: string): Promise<ProviderModel[]>;
}

/** A device sign-in in progress: the device code is a secret (whoever holds it can redeem the grant). */
export interface PendingSignIn {
  signInId: string;
  agentId: string;
  deviceCode: string;
  intervalSeconds: number;
  /** The provider is not asked again before this. */
  nextPollAt: Date;
  expiresAt: Date;
}

export interface AccountTokens {
  accessToken: string;
  refreshToken?: string | undefined;
  /** When the access token expires, when the provider said. */
  accessExpiresAt?: Date | undefined;
}

/**
 * The account secrets, encrypted at rest (AES-256-GCM; the key is ASSISTANT_SECRET_KEY or a key file in
 * the data folder, never the database). A row that cannot be decrypted (the key changed) reads as
 * `assistant.account_reconnect_needed`.
 */
export interface AssistantAccountVault {
  /** Stores a sign-in, replacing any other pending for the same agent (one at a time). */
  savePending(p: PendingSignIn): Promise<void>;
  loadPending(agentId: string, signInId: string): Promise<PendingSignIn | undefined>;
  /** The pacing after a poll (the interval grows by 5 s on `slow_down`). */
  updatePending(signInId: string, pacing: { intervalSeconds: number; nextPollAt: Date }): Promise<void>;
  deletePending(signInId: string): Promise<void>;
  saveTokens(agentId: string, tokens: AccountTokens): Promise<void>;
  loadTokens(agentId: string): Promise<AccountTokens | undefined>;
  /**
   * Runs `update` on the agent's tokens while holding them (a row lock): a refresh rotates the refresh
   * token, and two refreshes of the same token at once would make the provider revoke the grant.
   * What `update` returns replaces the tokens; undefined leaves them. Undefined when there are none.
   */
  updateTokens(
    agentId: string,
    update: (current: AccountTokens) => Promise<AccountTokens | undefined>,
  ): Promise<AccountTokens | undefined>;
  /** Deletes the ciphertext. */
  deleteTokens(agentId: string): Promise<void>;
}

export interface AssistantAccountPorts {
  /** Absent when no provider is configured. */
  provider?: AssistantProviderClient | undefined;
  vault: AssistantAccountVault;
  /** An access token expiring sooner than this is refreshed before it is used. */
  refreshMarginSeconds: number;
  /**
   * The provider's OpenAI-compatible chat API (ASSISTANT_PROVIDER_API_URL), built for ONE turn with the
   * account's current access token as its bearer and the chosen model; absent when not configured (turns
   * then never use the account). The token lives only in the returned client, never in its errors.
   */
  chatModel?: ((accessToken: string, model: string) => LanguageModel) | undefined;
}
