// The assistant settings as the routes and tools show them.
import type { AssistantSettingsState } from '@tributary/domain';
import { z } from 'zod';

export const settingsOutput = z.object({
  agentId: z.string(),
  /** A model id; null = the configured default (or the built-in planner). */
  model: z.string().nullable(),
  /** The persona plans act as by default; null = the person's own agent. */
  defaultPersonaId: z.string().nullable(),
  /** Read-only tools that may run without confirmation. */
  autoRunReadTools: z.array(z.string()),
  /** Whether finished plan steps are written to the vault document. */
  vault: z.boolean(),
});

export const toSettingsOutput = (agentId: string, s: AssistantSettingsState) => ({
  agentId,
  model: s.model,
  defaultPersonaId: s.defaultPersonaId,
  autoRunReadTools: [...s.autoRunReadTools],
  vault: s.vault,
});
