// svc.assistant.update_settings: changes the fields given, each checked: the model is one the configured
// endpoint or the connected account offers (when that is known), the default persona is one the person
// controls, and auto-run tools only read — a tool that writes never runs unconfirmed.
import {
  assistantSettingsStream,
  DomainError,
  invalid,
  notFound,
  uuidSchema,
  type AssistantSettingsState,
} from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { operationNamed } from '../pipeline/operation-lookup.js';
import { readAssistantSettings } from './read-settings.js';
import { READ_AREAS } from './read-areas.js';
import { settingsOutput, toSettingsOutput } from './settings-schemas.js';

const input = z
  .strictObject({
    model: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .regex(/^[\w.:/@-]+$/, 'a model id: letters, digits and . _ - : / @')
      .nullable()
      .optional()
      .describe('a model id the model endpoint or the connected account offers; null = the default'),
    defaultPersonaId: uuidSchema
      .nullable()
      .optional()
      .describe('a persona you control that plans act as by default; null = your own agent'),
    autoRunReadTools: z
      .array(z.string().min(1).max(100))
      .max(200)
      .optional()
      .describe('read-only tools that may run without confirmation (never a tool that writes)'),
    readAreas: z
      .array(z.enum(READ_AREAS))
      .max(READ_AREAS.length)
      .nullable()
      .optional()
      .describe(
        'areas whose reads run without asking (the rest ask first); null = the default, every area of your own data',
      ),
    vault: z.boolean().optional().describe('keep the vault document (off: nothing new is added)'),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: 'name at least one setting to change',
  });

export const updateSettings = defineAssistantOperation({
  name: 'svc.assistant.update_settings',
  title: 'Update assistant settings',
  description:
    'Changes the assistant settings named: `model`, `defaultPersonaId`, `readAreas` (areas whose reads run ' +
    'without asking), `autoRunReadTools` (read-only tools only) and `vault`. Fields left out keep their value.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  // A remote viewer reaches the settings routes, and is told plainly that they are read-only to it.
  remoteViewerRefusal: 'assistant.remote_viewer_read_only',
  input,
  output: settingsOutput,
  async run(ctx, i) {
    const { services, actor } = ctx;
    if (i.model) {
      const offered = (await services.assistant.offeredModels?.(actor.agentId)) ?? null;
      if (offered && !offered.includes(i.model))
        throw invalid('assistant.model_not_offered', `the model ${i.model} is not offered`, {
          models: offered,
        });
    }
    if (i.defaultPersonaId) {
      const persona = await services.agents.read.agent(i.defaultPersonaId);
      if (!persona || persona.kind !== 'persona' || persona.ownerAgentId !== actor.agentId)
        throw notFound('agent.not_found', 'no such persona among those you control');
    }
    let tools: string[] | undefined;
    if (i.autoRunReadTools) {
      tools = [...new Set(i.autoRunReadTools)].sort();
      const unknown = tools.filter((t) => (operationNamed(t)?.enabledFor.length ?? 0) === 0);
      if (unknown.length > 0)
        throw invalid('assistant.unknown_tool', `no such tool: ${unknown.join(', ')}`, { tools: unknown });
      const writes = tools.filter((t) => operationNamed(t)!.kind !== 'query');
      if (writes.length > 0)
        throw new DomainError(
          'assistant.auto_run_write_tool',
          'invalid',
          `these tools write and never run unconfirmed: ${writes.join(', ')}`,
          { tools: writes },
        );
    }
    const stream = assistantSettingsStream(actor.agentId);
    await ctx.commit([stream], () => [
      {
        stream,
        type: 'assistant.settings_updated',
        data: {
          ...(i.model !== undefined && { model: i.model }),
          ...(i.defaultPersonaId !== undefined && { defaultPersonaId: i.defaultPersonaId }),
          ...(tools && { autoRunReadTools: tools }),
          ...(i.readAreas !== undefined && {
            readAreas: i.readAreas && READ_AREAS.filter((a) => i.readAreas!.includes(a)),
          }),
          ...(i.vault !== undefined && { vault: i.vault }),
        },
      },
    ]);
    const settings: AssistantSettingsState = await readAssistantSettings(services, actor.agentId);
    return toSettingsOutput(actor.agentId, settings);
  },
});
