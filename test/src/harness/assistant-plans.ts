// A plan proposed without a model: the way the chat turn loop does it (a thread, the person's message,
// the assistant's message and its plan, in one commit through proposePlan), for tests of confirmation.
import { decideStartThread, threadStream, type NewEvent, type ThreadState } from '@tributary/domain';
import {
  defineAssistantOperation,
  execute,
  proposePlan,
  type PlanProposal,
  type Principal,
  type ProposedStep,
  type Services,
} from '@tributary/services';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

export interface ProposedForTest extends PlanProposal {
  threadId: string;
  messageId: string;
}

const proposeForTest = defineAssistantOperation({
  name: 'test.assistant.propose_plan',
  title: 'Propose a plan (tests)',
  description: 'Tests only: a thread, a message and a plan, as the chat turn loop commits them.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  input: z.object({
    threadId: z.string().optional(),
    text: z.string(),
    steps: z.array(z.object({ tool: z.string(), args: z.record(z.string(), z.unknown()) })),
    ttlSeconds: z.number().optional(),
    actingAgentId: z.string().optional(),
  }),
  async run(ctx, input): Promise<ProposedForTest> {
    const owner = (ctx.principal as { agentId: string }).agentId;
    const threadId = input.threadId ?? randomUUID();
    const tStream = threadStream(threadId);
    const personMessageId = randomUUID();
    const messageId = randomUUID();
    const proposal = proposePlan(ctx, {
      threadId,
      messageId,
      ownerAgentId: owner,
      actingAgentId: input.actingAgentId ?? owner,
      steps: input.steps as ProposedStep[],
      ttlSeconds: input.ttlSeconds,
    });
    await ctx.commit([tStream, proposal.stream], (states) => {
      const thread = states.get(tStream) as ThreadState;
      const events: NewEvent[] = thread.exists
        ? []
        : decideStartThread(thread, { threadId, ownerAgentId: owner, firstMessage: input.text });
      const message = (
        id: string,
        role: 'person' | 'assistant',
        text: string,
        planId?: string,
      ): NewEvent => ({
        stream: tStream,
        type: 'assistant.message_added',
        data: { messageId: id, role, text, attachmentIds: [], ...(planId && { planId }) },
      });
      return [
        ...events,
        message(personMessageId, 'person', input.text),
        message(
          messageId,
          'assistant',
          `Here is what I would do (${input.steps.length} steps).`,
          proposal.planId,
        ),
        ...proposal.decide(states),
      ];
    });
    return { ...proposal, threadId, messageId };
  },
});

/** Proposes a plan of `steps` for the person `agentId` (a session of `accountId`). */
export async function proposeTestPlan(
  services: Services,
  person: { accountId: string; agentId: string },
  input: z.input<typeof proposeForTest.input>,
): Promise<ProposedForTest> {
  const principal: Principal = {
    kind: 'session',
    sessionId: 'test-proposal',
    accountId: person.accountId,
    agentId: person.agentId,
  };
  return (await execute(services, proposeForTest, input, principal, 'system')).result;
}
