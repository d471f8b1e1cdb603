// The connected external-assistant account's ports (docs/assistant.md#connected-account): the provider's
// client (through the process's outbound client) when one is configured, and the encrypted vault.
import { createAssistantProviderClient, type OutboundHttp } from '@tributary/adapters';
import {
  accountModelIds,
  accountStateOf,
  type AssistantAccountPorts,
  type AssistantPorts,
  type Clock,
  type Services,
} from '@tributary/services';
import { join } from 'node:path';
import type pg from 'pg';
import type { Logger } from 'pino';
import { createOpenAiLanguageModel } from '../assistant/openai-language-model.js';
import { createPgAccountVault } from '../assistant/pg-account-vault.js';
import { createSecretCipher, loadOrCreateSecretKey } from '../assistant/secret-key.js';
import type { Config } from '../config/config.js';

/** Where the secret key is kept when ASSISTANT_SECRET_KEY is unset. */
export const assistantSecretKeyPath = (dataDir: string) => join(dataDir, 'keys', 'assistant-secrets.key');

export function composeAssistantAccount(o: {
  pool: pg.Pool;
  config: Config;
  clock: Clock;
  outbound: OutboundHttp;
  logger: Logger;
}): AssistantAccountPorts {
  const c = o.config;
  const secretKey = loadOrCreateSecretKey(
    c.ASSISTANT_SECRET_KEY,
    assistantSecretKeyPath(c.TRIBUTARY_DATA_DIR),
  );
  if (secretKey.created) o.logger.info('created the assistant account secret key');
  const configured =
    c.ASSISTANT_PROVIDER_DEVICE_URL && c.ASSISTANT_PROVIDER_TOKEN_URL && c.ASSISTANT_PROVIDER_CLIENT_ID;
  return {
    provider: configured
      ? createAssistantProviderClient({
          settings: {
            name: c.ASSISTANT_PROVIDER_NAME ?? new URL(c.ASSISTANT_PROVIDER_TOKEN_URL!).host,
            deviceUrl: c.ASSISTANT_PROVIDER_DEVICE_URL!,
            tokenUrl: c.ASSISTANT_PROVIDER_TOKEN_URL!,
            revokeUrl: c.ASSISTANT_PROVIDER_REVOKE_URL,
            modelsUrl: c.ASSISTANT_PROVIDER_MODELS_URL,
            clientId: c.ASSISTANT_PROVIDER_CLIENT_ID!,
            scope: c.ASSISTANT_PROVIDER_SCOPE || undefined,
          },
          outbound: o.outbound,
        })
      : undefined,
    vault: createPgAccountVault(o.pool, createSecretCipher(secretKey.key), () => o.clock.now()),
    refreshMarginSeconds: c.ASSISTANT_REFRESH_MARGIN_SECONDS,
    // One client per turn, holding that turn's access token; the same guarded client and time limit as
    // the instance's own model. Pictures are not sent: nothing says the provider's models take them.
    chatModel:
      configured && c.ASSISTANT_PROVIDER_API_URL
        ? (accessToken, model) =>
            createOpenAiLanguageModel({
              baseUrl: c.ASSISTANT_PROVIDER_API_URL!,
              apiKey: accessToken,
              model,
              timeoutMs: c.LLM_TIMEOUT_MS,
              acceptsImages: false,
              outbound: o.outbound,
            })
        : undefined,
  };
}

/**
 * What the rest of the assistant asks of the connected account: its state for the status route, and the
 * models it offers for the settings' model choice (with the configured model endpoint's own model), null
 * when not known. `services` is the composed Services, read when called.
 */
export function assistantAccountHooks(
  services: () => Services,
): Required<Pick<AssistantPorts, 'accountState' | 'offeredModels'>> {
  return {
    accountState: (agentId) => accountStateOf(services(), agentId),
    async offeredModels(agentId) {
      const s = services();
      const ids = await accountModelIds(s, agentId);
      if (!ids) return null;
      const own = s.assistantChat?.model;
      return [...new Set([...(own?.kind === 'openai-compatible' ? [own.defaultModel] : []), ...ids])];
    },
  };
}
