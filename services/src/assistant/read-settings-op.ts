// svc.assistant.read_settings: the person's assistant settings (defaults until they change one). A
// remote viewer may read them (its own agent's), never change them.
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { readAssistantSettings } from './read-settings.js';
import { settingsOutput, toSettingsOutput } from './settings-schemas.js';

export const readSettings = defineAssistantOperation({
  name: 'svc.assistant.read_settings',
  title: 'Read assistant settings',
  description:
    'Your assistant settings: the model, the persona plans act as by default, the read-only tools that may run ' +
    'without confirmation, and whether the vault document is kept.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  remoteViewer: 'read',
  input: z.strictObject({}),
  output: settingsOutput,
  async run(ctx) {
    const agentId = ctx.actor.agentId;
    return toSettingsOutput(agentId, await readAssistantSettings(ctx.services, agentId));
  },
});
