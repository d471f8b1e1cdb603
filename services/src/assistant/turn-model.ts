// Which LanguageModel answers a chat turn (docs/assistant.md#how-a-turn-uses-the-account): the connected
// account's provider, or the instance's own model (LLM_BASE_URL, else the built-in planner).
//
// Precedence, for the person whose settings are read:
//   1. The account route: an account is connected, the provider's chat API is configured
//      (ASSISTANT_PROVIDER_API_URL), and the settings' model is one the account offers (its models list).
//   2. Also the account route when the instance has no model of its own (built-in planner only) and the
//      account offers any model: the settings' model when offered, else the first one listed.
//   3. Otherwise the instance's own model, with the settings' model as before.
// Which models the account offers is asked of the provider (its models endpoint, token refreshed first);
// when that cannot be known (no models endpoint, the provider unreachable) the instance's model answers.
import { domainError, isDomainError } from '@tributary/domain';
import type { AssistantOperationServices } from './assistant-operation.js';
import type { LanguageModel, ModelTurnRequest } from './ports/language-model.js';
import { accountModelIds, assistantAccountState, freshAccessToken } from './account-support.js';

export type TurnRoute = 'account' | 'configured' | 'builtin';

export interface TurnModelChoice {
  route: TurnRoute;
  /** The model name the turn asks for (null: the implementation's default). */
  modelName: string | null;
}

/** Where the person's next turn goes, without building anything (the status route shows it). */
export async function chooseTurnRoute(
  services: AssistantOperationServices,
  agentId: string,
  settingsModel: string | null,
): Promise<TurnModelChoice> {
  const own = services.assistantChat?.model;
  const ownRoute: TurnModelChoice = {
    route: own?.kind === 'openai-compatible' ? 'configured' : 'builtin',
    modelName: settingsModel,
  };
  if (!services.assistantAccount?.chatModel) return ownRoute;
  // The account's stream first: people without an account cost no call to the provider.
  if (!(await assistantAccountState(services, agentId)).state.account) return ownRoute;
  const offered = await accountModelIds(services, agentId);
  if (!offered || offered.length === 0) return ownRoute;
  if (settingsModel && offered.includes(settingsModel)) return { route: 'account', modelName: settingsModel };
  if (ownRoute.route === 'builtin') return { route: 'account', modelName: offered[0]! };
  return ownRoute;
}

/**
 * The turn's model. On the account route, a client built for this turn with the account's access token
 * (refreshed first when it is about to expire); the provider refusing the token (401/403) is
 * `assistant.account_reconnect_needed`, so the person knows to sign in again.
 */
export async function turnModel(
  services: AssistantOperationServices,
  agentId: string,
  settingsModel: string | null,
  own: LanguageModel,
): Promise<TurnModelChoice & { model: LanguageModel }> {
  const choice = await chooseTurnRoute(services, agentId, settingsModel);
  const build = services.assistantAccount?.chatModel;
  if (choice.route !== 'account' || !build) return { ...choice, model: own };
  const model = build(await freshAccessToken(services, agentId), choice.modelName!);
  return {
    ...choice,
    model: {
      kind: model.kind,
      defaultModel: model.defaultModel,
      acceptsImages: model.acceptsImages,
      probe: () => model.probe(),
      async complete(request: ModelTurnRequest) {
        try {
          return await model.complete(request);
        } catch (e) {
          const status = isDomainError(e) ? e.details?.remoteStatus : undefined;
          if (status === 401 || status === 403)
            throw domainError(
              'assistant.account_reconnect_needed',
              'conflict',
              `the provider refused the connected account's token (${status}); disconnect and sign in again`,
            );
          throw e;
        }
      },
    },
  };
}
