// The person's assistant settings, folded from their stream (`asettings-<agentId>`): the turn loop, the
// confirm path and the settings routes all read them here.
import { assistantSettingsStream, fold, type AssistantSettingsState } from '@tributary/domain';
import type { AssistantOperationServices } from './assistant-operation.js';

export async function readAssistantSettings(
  services: AssistantOperationServices,
  agentId: string,
): Promise<AssistantSettingsState> {
  const stream = assistantSettingsStream(agentId);
  return fold<AssistantSettingsState>(stream, await services.store.readStream(stream));
}
