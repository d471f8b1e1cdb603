// svc.assistant.read_credential: what the assistant acts as when it runs a step for you — the agent (id,
// handle, kind) and the scopes it holds — and never a secret: no token, no digest, no key.
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { targetAgentId } from '../shared/schemas.js';
import { readAssistantSettings } from './read-settings.js';

export const readCredential = defineAssistantOperation({
  name: 'svc.assistant.read_credential',
  title: 'What the assistant acts as',
  description:
    'The agent the assistant acts as for you (the one named by `targetAgentId`, else your default persona, else ' +
    'your own agent): its id, handle and kind, how it is authorized, and the scopes it holds. Never a secret.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  input: z.strictObject({ targetAgentId }),
  output: z.object({
    agentId: z.string(),
    handle: z.string().nullable(),
    name: z.string(),
    kind: z.string(),
    /** Which of your agents this is for: named, your default persona, or your own agent. */
    chosenBy: z.enum(['targetAgentId', 'defaultPersonaId', 'self']),
    credential: z.object({ kind: z.enum(['session', 'token', 'static']), expiresAt: z.string().nullable() }),
    scopes: z.array(z.string()),
  }),
  async run(ctx, input) {
    const { services, principal } = ctx;
    let agent = ctx.actor;
    let chosenBy: 'targetAgentId' | 'defaultPersonaId' | 'self' = input.targetAgentId
      ? 'targetAgentId'
      : 'self';
    const bound = principal.kind === 'token' ? principal.boundAgentId : undefined;
    if (!input.targetAgentId && !bound && 'agentId' in principal) {
      const settings = await readAssistantSettings(services, principal.agentId);
      const persona = settings.defaultPersonaId
        ? await services.agents.read.agent(settings.defaultPersonaId)
        : null;
      // A default persona deleted since falls back to the person's own agent, as the turn loop does.
      if (persona && persona.ownerAgentId === principal.agentId) {
        agent = persona;
        chosenBy = 'defaultPersonaId';
      }
    }
    const kind = principal.kind === 'token' ? 'token' : principal.kind === 'static' ? 'static' : 'session';
    let expiresAt: string | null = null;
    if (principal.kind === 'token')
      expiresAt = (await services.tokens.read.tokenByJti(principal.jti))?.expiresAt ?? null;
    const scopes =
      principal.kind === 'token' || principal.kind === 'static'
        ? [...principal.scopes].sort()
        : // A session holds every scope over the agents it controls.
          [...services.config.scopesSupported].sort();
    return {
      agentId: agent.agentId,
      handle: agent.handle,
      name: agent.name,
      kind: agent.kind,
      chosenBy,
      credential: { kind, expiresAt },
      scopes,
    };
  },
});
