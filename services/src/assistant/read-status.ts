// svc.assistant.status: whether a model is configured and answers, which planner a turn uses, where the
// MCP endpoint is, and the connected account's state — what a person checks when the assistant is quiet.
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { readAssistantSettings } from './read-settings.js';
import { chooseTurnRoute } from './turn-model.js';

/** How long the status route waits for the model's probe before calling it unreachable. */
export const STATUS_PROBE_TIMEOUT_MS = 5_000;

export const readStatus = defineAssistantOperation({
  name: 'svc.assistant.status',
  title: 'Assistant status',
  description:
    'Whether a language model is configured and reachable, the planner in use (the model, or the built-in planner), ' +
    'the MCP endpoint, and the state of the connected external-assistant account.',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({}),
  output: z.object({
    model: z.object({
      configured: z.boolean(),
      reachable: z.boolean().nullable(),
      kind: z.enum(['builtin', 'openai-compatible']).nullable(),
      defaultModel: z.string().nullable(),
      chosenModel: z.string().nullable(),
      detail: z.string().nullable(),
    }),
    planner: z.enum(['builtin', 'model']),
    /**
     * Where the caller's next chat turn goes: `account` (the connected account's provider, its token),
     * `configured` (LLM_BASE_URL) or `builtin`; and the model it asks for (null: the route's default).
     */
    turn: z.object({
      route: z.enum(['account', 'configured', 'builtin']),
      model: z.string().nullable(),
    }),
    mcpEndpoint: z.string(),
    connectedAccount: z.object({ state: z.string() }),
  }),
  async run(ctx) {
    const { services, actor, instance } = ctx;
    const settings = await readAssistantSettings(services, actor.agentId);
    const model = services.assistantChat?.model;
    const configured = !!model && model.kind === 'openai-compatible';
    let reachable: boolean | null = null;
    let detail: string | null = configured
      ? null
      : 'no model is configured (LLM_BASE_URL unset): the built-in planner answers';
    if (model && configured) {
      const probe = await Promise.race([
        model.probe(),
        new Promise<{ reachable: false; detail: string }>((resolve) =>
          setTimeout(
            () => resolve({ reachable: false, detail: 'the model did not answer in time' }),
            STATUS_PROBE_TIMEOUT_MS,
          ).unref(),
        ),
      ]);
      reachable = probe.reachable;
      detail = probe.detail ?? null;
    }
    const accountState = services.assistant.accountState
      ? ((await services.assistant.accountState(actor.agentId)) ?? 'not_connected')
      : 'unknown';
    const turn = await chooseTurnRoute(services, actor.agentId, settings.model);
    return {
      model: {
        configured,
        reachable,
        kind: model?.kind ?? null,
        defaultModel: model?.defaultModel ?? null,
        chosenModel: settings.model,
        detail,
      },
      planner: configured ? ('model' as const) : ('builtin' as const),
      turn: { route: turn.route, model: turn.modelName ?? model?.defaultModel ?? null },
      mcpEndpoint: new URL('/api/mcp', instance.baseUrl).toString(),
      connectedAccount: { state: accountState },
    };
  },
});
