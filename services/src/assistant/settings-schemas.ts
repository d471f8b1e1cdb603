// The assistant settings as the routes and tools show them.
import type { AssistantSettingsState } from '@tributary/domain';
import { z } from 'zod';
import { DEFAULT_READ_AREAS, READ_AREAS } from './read-areas.js';

export const settingsOutput = z.object({
  agentId: z.string(),
  /** A model id; null = the configured default (or the built-in planner). */
  model: z.string().nullable(),
  /** The persona plans act as by default; null = the person's own agent. */
  defaultPersonaId: z.string().nullable(),
  /** Read-only tools that may run without confirmation. */
  autoRunReadTools: z.array(z.string()),
  /** Areas whose reads run without asking (the default: every area of your own data). */
  readAreas: z.array(z.enum(READ_AREAS)),
  /** Whether finished plan steps are written to the vault document. */
  vault: z.boolean(),
});

export const toSettingsOutput = (agentId: string, s: AssistantSettingsState) => ({
  agentId,
  model: s.model,
  defaultPersonaId: s.defaultPersonaId,
  autoRunReadTools: [...s.autoRunReadTools],
  readAreas: readAreasOf(s),
  vault: s.vault,
});

/** The areas whose reads run without asking, as the settings have them now. */
export const readAreasOf = (s: AssistantSettingsState): (typeof READ_AREAS)[number][] =>
  s.readAreas === null
    ? [...DEFAULT_READ_AREAS]
    : READ_AREAS.filter((a) => (s.readAreas as readonly string[]).includes(a));
