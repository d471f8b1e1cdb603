import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { ownerOf } from './run-plan.js';

export const THREADS_PAGE_DEFAULT = 20;
export const THREADS_PAGE_MAX = 100;

export const listThreads = defineAssistantOperation({
  name: 'svc.assistant.list_threads',
  title: 'List assistant threads',
  description:
    'Your conversations with the assistant, newest activity first, a page at a time: pass the `nextBefore` ' +
    'of one page as `before` to get the following one (null on the last page).',
  kind: 'query',
  scopes: ['svc.assistant.read'],
  enabledFor: ['session', 'token'],
  // Threads are the person's own, whichever persona their plans act as.
  actsForAgent: false,
  input: z.strictObject({
    limit: z.coerce.number().int().min(1).max(THREADS_PAGE_MAX).default(THREADS_PAGE_DEFAULT),
    before: z.string().max(100).optional().describe('the threadId the previous page ended with'),
  }),
  async run(ctx, input) {
    const page = await ctx.services.assistant.read.threads.threadsOf(ownerOf(ctx.principal), {
      limit: input.limit + 1,
      before: input.before,
    });
    const threads = page.slice(0, input.limit).map(({ ownerAgentId: _, ...t }) => t);
    return { threads, nextBefore: page.length > input.limit ? threads[threads.length - 1]!.threadId : null };
  },
});
