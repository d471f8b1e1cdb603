// The person's assistant settings (stream `asettings-<agentId>`).
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AssistantEventData as EventData } from './events.js';

export interface AssistantSettingsState {
  model: string | null;
  defaultPersonaId: string | null;
  /** Tools named one by one that may run without asking (reads only). */
  autoRunReadTools: readonly string[];
  /**
   * Areas whose reads run without asking (services/src/assistant/read-areas.ts); null = the default, every
   * area of the person's own data.
   */
  readAreas: readonly string[] | null;
  vault: boolean;
}
/** Reads of the person's own data run without asking (the default areas); nothing else does; the vault is on. */
export const initialAssistantSettings = (): AssistantSettingsState => ({
  model: null,
  defaultPersonaId: null,
  autoRunReadTools: [],
  readAreas: null,
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
    readAreas: d.readAreas === undefined ? state.readAreas : d.readAreas,
    vault: d.vault ?? state.vault,
  };
}
