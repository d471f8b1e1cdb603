// What the account operations share: the configured ports, the account's state from its stream, the
// answer shape (never a secret), and an access token that is fresh enough to use.
import {
  connectedAccountStream,
  decideRefresh,
  domainError,
  fold,
  isDomainError,
  type AssistantAccountState,
} from '@tributary/domain';
import { z } from 'zod';
import { commitEvents } from '../pipeline/execute.js';
import type { AssistantOperationServices } from './assistant-operation.js';
import type {
  AccountTokens,
  AssistantAccountPorts,
  AssistantProviderClient,
  ProviderModel,
} from './ports/assistant-account.js';

/** The account ports with a provider, or `assistant.provider_not_configured`. */
export function accountPorts(
  services: AssistantOperationServices,
): AssistantAccountPorts & { provider: AssistantProviderClient } {
  const ports = services.assistantAccount;
  if (!ports?.provider)
    throw domainError(
      'assistant.provider_not_configured',
      'unavailable',
      'no external assistant provider is configured on this instance',
      { missing: 'ASSISTANT_PROVIDER_DEVICE_URL' },
    );
  return ports as AssistantAccountPorts & { provider: AssistantProviderClient };
}

/** The account's stream, folded whole: it is short (one event per sign-in, refresh, disconnect). */
export async function assistantAccountState(
  services: AssistantOperationServices,
  agentId: string,
): Promise<{ state: AssistantAccountState; version: number }> {
  const stream = connectedAccountStream(agentId);
  const events = (await services.store.readStreams([stream])).get(stream) ?? [];
  return {
    state: fold<AssistantAccountState>(stream, events),
    version: events.length ? events[events.length - 1]!.streamVersion : 0,
  };
}

export const accountOutput = z.object({
  agentId: z.string(),
  connected: z.boolean(),
  /** The configured provider's name (null when none is configured). */
  provider: z.string().nullable(),
  account: z
    .object({
      provider: z.string(),
      accountLabel: z.string().nullable(),
      scopes: z.array(z.string()),
      connectedAt: z.string(),
      refreshedAt: z.string().nullable(),
      /** When the current access token expires; it is refreshed before then when it is used. */
      accessExpiresAt: z.string().nullable(),
    })
    .nullable(),
  /** A device sign-in in progress, if one is. */
  pendingSignIn: z.object({ signInId: z.string(), expiresAt: z.string() }).nullable(),
});
export type AccountOutput = z.infer<typeof accountOutput>;

/** The account as answered: what the log says, never a token. */
export function accountView(
  services: AssistantOperationServices,
  agentId: string,
  state: AssistantAccountState,
  now: Date,
): AccountOutput {
  const a = state.account;
  const pending = Object.entries(state.pending)
    .filter(([, p]) => new Date(p.expiresAt) > now)
    .sort(([, x], [, y]) => y.expiresAt.localeCompare(x.expiresAt))[0];
  return {
    agentId,
    connected: !!a,
    provider: services.assistantAccount?.provider?.name ?? null,
    account: a
      ? {
          provider: a.provider,
          accountLabel: a.accountLabel ?? null,
          scopes: a.scopes,
          connectedAt: a.connectedAt,
          refreshedAt: a.refreshedAt ?? null,
          accessExpiresAt: a.expiresAt ?? null,
        }
      : null,
    pendingSignIn: pending ? { signInId: pending[0], expiresAt: pending[1].expiresAt } : null,
  };
}

const reconnect = (message: string) => domainError('assistant.account_reconnect_needed', 'conflict', message);

/** An expiry as an ISO time, from `expires_in` seconds after `now`. */
export const expiryOf = (now: Date, seconds: number | undefined) =>
  seconds === undefined ? undefined : new Date(now.getTime() + seconds * 1000);

/**
 * The agent's access token, refreshed first (refresh_token grant, under the vault's row lock) when it
 * expires within the margin. A refresh is recorded as `assistant.account_refreshed` in an append of its
 * own (housekeeping, not the calling operation's one commit), so any operation or port may use it.
 */
export async function freshAccessToken(
  services: AssistantOperationServices,
  agentId: string,
): Promise<string> {
  const ports = accountPorts(services);
  let refreshed: AccountTokens | undefined;
  const dueBy = (t: AccountTokens) =>
    t.accessExpiresAt !== undefined &&
    t.accessExpiresAt.getTime() - ports.refreshMarginSeconds * 1000 <= services.clock.now().getTime();
  const tokens = await ports.vault.updateTokens(agentId, async (current) => {
    // Checked again under the lock: another request may have refreshed meanwhile.
    if (!dueBy(current)) return undefined;
    if (!current.refreshToken)
      throw reconnect('the access token expired and the provider gave no refresh token');
    const answer = await ports.provider.refresh(current.refreshToken);
    refreshed = {
      accessToken: answer.accessToken,
      // A provider that does not rotate keeps the refresh token it had.
      refreshToken: answer.refreshToken ?? current.refreshToken,
      accessExpiresAt: expiryOf(services.clock.now(), answer.expiresInSeconds),
    };
    return refreshed;
  });
  if (!tokens) throw reconnect('the account has no usable tokens here; sign in again');
  if (refreshed) {
    const stream = connectedAccountStream(agentId);
    const at = refreshed.accessExpiresAt?.toISOString();
    await commitEvents(
      services,
      [stream],
      (states) =>
        decideRefresh(
          {
            agentId,
            ...(at !== undefined && { expiresAt: at }),
            refreshedAt: services.clock.now().toISOString(),
          },
          states.get(stream) as AssistantAccountState,
        ),
      agentId,
    );
  }
  return tokens.accessToken;
}

/** The models available through the agent's connected account (the provider's list, token refreshed first). */
export async function accountModels(
  services: AssistantOperationServices,
  agentId: string,
): Promise<ProviderModel[]> {
  const ports = accountPorts(services);
  if (!ports.provider.listsModels)
    throw domainError(
      'assistant.provider_not_configured',
      'unavailable',
      'the provider has no models endpoint configured',
      { missing: 'ASSISTANT_PROVIDER_MODELS_URL' },
    );
  return ports.provider.listModels(await freshAccessToken(services, agentId));
}

/** The account's state in one word, for the assistant's status route. */
export async function accountStateOf(
  services: AssistantOperationServices,
  agentId: string,
): Promise<'not_configured' | 'not_connected' | 'sign_in_pending' | 'connected'> {
  const { state } = await assistantAccountState(services, agentId);
  if (state.account) return 'connected';
  if (!services.assistantAccount?.provider) return 'not_configured';
  const now = services.clock.now();
  return Object.values(state.pending).some((p) => new Date(p.expiresAt) > now)
    ? 'sign_in_pending'
    : 'not_connected';
}

/**
 * The model ids the connected account offers, for the settings' model choice; null when that is not
 * known (no account, no models endpoint, the provider unreachable), and the choice is then not limited.
 */
export async function accountModelIds(
  services: AssistantOperationServices,
  agentId: string,
): Promise<string[] | null> {
  if (!services.assistantAccount?.provider?.listsModels) return null;
  const { state } = await assistantAccountState(services, agentId);
  if (!state.account) return null;
  try {
    return (await accountModels(services, agentId)).map((m) => m.id);
  } catch (e) {
    if (isDomainError(e)) return null;
    throw e;
  }
}
