// The person's assistant settings (stream `asettings-<agentId>`).
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AssistantEventData as EventData } from './events.js';

export interface AssistantSettingsState {
  model: string | null;
  defaultPersonaId: string | null;
  autoRunReadTools: readonly string[];
  vault: boolean;
}
/** Nothing runs unconfirmed until the person says so; the vault is on. */
export const initialAssistantSettings = (): AssistantSettingsState => ({
  model: null,
  defaultPersonaId: null,
  autoRunReadTools: [],
  vault: true,
});

export function evolveAssistantSettings(
  state: AssistantSettingsState,
  event: StoredEventLike,
): AssistantSettingsState {
  if (event.type !== 'assistant.settings_updated') return state;
  const d = event.data as EventData<'assistant.settings_updated'>;
  return {
    model: d.model === undefined ? state.model : d.model,
    defaultPersonaId: d.defaultPersonaId === undefined ? state.defaultPersonaId : d.defaultPersonaId,
    autoRunReadTools: d.autoRunReadTools ?? state.autoRunReadTools,
    vault: d.vault ?? state.vault,
  };
}
