// svc.assistant.list_provenance: what the assistant did for you, from the provenance log — its surface's
// calls (steps of plans, auto-run reads) and every call that ran a plan step — newest first, a page at a
// time, optionally only one plan's.
import { uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation, type AssistantOperationContext } from './assistant-operation.js';
import { describeStep } from '../step-words.js';
import { stepNames } from './step-names.js';

export const ASSISTANT_PROVENANCE_DEFAULT = 50;
export const ASSISTANT_PROVENANCE_MAX = 200;

const entry = z.object({
  entryId: z.string(),
  at: z.string(),
  /** The call in words: a plan step's sentence as its plan showed it, else the tool's sentence. */
  words: z.string(),
  tool: z.string(),
  surface: z.string(),
  authMode: z.string(),
  actorId: z.string().nullable(),
  args: z.record(z.string(), z.json()),
  outcome: z.string(),
  errorCode: z.string().nullable(),
  durationMs: z.number(),
  plan: z.object({ planId: z.string(), hash: z.string(), step: z.number() }).nullable(),
});

export const listAssistantProvenance = defineAssistantOperation({
  name: 'svc.assistant.list_provenance',
  title: 'What the assistant did',
  description:
    'The provenance log of the assistant’s calls for you (steps of plans you confirmed, reads it ran), newest ' +
    `first; filter by \`planId\`; page with \`before\` = the previous page's \`nextBefore\` (default ${ASSISTANT_PROVENANCE_DEFAULT}, at most ${ASSISTANT_PROVENANCE_MAX}).`,
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    planId: z.string().min(1).max(100).optional().describe('only this plan’s steps'),
    limit: z.coerce.number().int().min(1).max(ASSISTANT_PROVENANCE_MAX).default(ASSISTANT_PROVENANCE_DEFAULT),
    before: uuidSchema.optional().describe('an entryId: only entries older than it'),
  }),
  output: z.object({ entries: z.array(entry), nextBefore: z.string().nullable() }),
  async run(ctx, input) {
    const { principal, services } = ctx;
    // The person behind the credential: plans are confirmed by a person and run under their account.
    const accountId = 'accountId' in principal ? principal.accountId : undefined;
    if (!accountId) return { entries: [], nextBefore: null };
    const rows = await services.tokens.read.assistantProvenance({
      controllerAccountId: accountId,
      planId: input.planId,
      limit: input.limit + 1,
      before: input.before,
    });
    const page = rows.slice(0, input.limit);
    const boundTo = principal.kind === 'token' ? principal.boundAgentId : undefined;
    const shown = page.filter((e) => !boundTo || e.actorId === boundTo);
    const words = await wordsOf(ctx, shown);
    return {
      // A token bound to a persona sees only what was done as that persona.
      entries: shown.map((e) => ({
        entryId: e.entryId,
        at: e.at,
        words: words(e),
        tool: e.tool,
        surface: e.surface,
        authMode: e.authMode,
        actorId: e.actorId,
        args: e.args,
        outcome: e.outcome,
        errorCode: e.errorCode,
        durationMs: e.durationMs,
        plan: e.plan,
      })),
      nextBefore: rows.length > input.limit ? page[page.length - 1]!.entryId : null,
    };
  },
});

type Row = {
  tool: string;
  args: Record<string, unknown>;
  actorId: string | null;
  plan: { planId: string; step: number } | null;
};

/**
 * Each call in words: a plan step as its plan put it (one read for all the plans on the page), anything
 * else — reads run without asking, a step whose thread was deleted — by its tool's sentence, ids named.
 */
async function wordsOf(ctx: AssistantOperationContext, rows: readonly Row[]) {
  const planIds = [...new Set(rows.flatMap((r) => (r.plan ? [r.plan.planId] : [])))];
  const plans = new Map(
    (planIds.length ? await ctx.services.assistant.read.threads.plansOf(planIds) : []).map((p) => [
      p.planId,
      p,
    ]),
  );
  const titled = (r: Row) =>
    r.plan ? plans.get(r.plan.planId)?.steps.find((s) => s.step === r.plan!.step)?.title : undefined;
  const rest = rows.filter((r) => !titled(r));
  const person = 'agentId' in ctx.principal ? ctx.principal.agentId : '';
  const names = rest.length
    ? await stepNames(ctx.services, {
        personAgentId: person,
        actingAgentId: person,
        args: rest.map((r) => r.args),
      })
    : null;
  return (r: Row) => titled(r) ?? describeStep(r.tool, r.args, names!);
}
