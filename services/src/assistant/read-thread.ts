import { notFound } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { doneReply } from './done-reply.js';
import { liveSitesOf } from './live-sites.js';
import { planStatusOf } from './plan-views.js';
import { replyNotes } from './reply-notes.js';
import { ownerOf } from './run-plan.js';

export const MESSAGES_PAGE_DEFAULT = 100;
export const MESSAGES_PAGE_MAX = 200;

export const readThread = defineAssistantOperation({
  name: 'svc.assistant.read_thread',
  title: 'Read an assistant thread',
  description:
    'One of your threads with its messages in order, each assistant message with the plan it proposes ' +
    '(steps, arguments exactly as they will run, each step’s status) — a page at a time: pass ' +
    '`nextAfter` as `after` for the following messages (null on the last page).',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({
    threadId: z.string().min(1).max(100),
    limit: z.coerce.number().int().min(1).max(MESSAGES_PAGE_MAX).default(MESSAGES_PAGE_DEFAULT),
    after: z.coerce.number().int().min(0).optional().describe('the `seq` the previous page ended with'),
  }),
  async run(ctx, input) {
    const read = ctx.services.assistant.read.threads;
    const thread = await read.thread(input.threadId);
    if (!thread || thread.ownerAgentId !== ownerOf(ctx.principal))
      throw notFound('assistant.thread_not_found', 'no such thread');
    const page = await read.messagesOf(input.threadId, { limit: input.limit + 1, after: input.after });
    const messages = page.slice(0, input.limit);
    const plans = new Map(
      (await read.plansOf(messages.flatMap((m) => (m.planId ? [m.planId] : [])))).map((p) => [p.planId, p]),
    );
    const { ownerAgentId: _, ...threadOut } = thread;
    return {
      thread: threadOut,
      messages: await Promise.all(
        messages.map(async ({ threadId: _t, ...m }) => {
          const found = m.planId ? plans.get(m.planId) : undefined;
          const status = found ? planStatusOf(found, ctx.now) : null;
          // What became of a plan once a step has finished, in words, with links (as confirming answers).
          const finished = status?.steps.some((s) => s.status !== 'pending' && s.status !== 'confirmed');
          const plan = status && {
            ...status,
            reply: finished ? doneReply(status.steps, await liveSitesOf(ctx, status.steps)) : null,
          };
          return {
            ...m,
            // "Nothing in the plan has run" holds only while it waits for the person.
            notes:
              m.role === 'assistant'
                ? replyNotes({ ...m, steps: plan?.status === 'proposed' ? plan.steps.length : undefined })
                : [],
            plan,
          };
        }),
      ),
      nextAfter: page.length > input.limit ? messages[messages.length - 1]!.seq : null,
    };
  },
});
