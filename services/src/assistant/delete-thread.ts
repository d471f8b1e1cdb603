import { decideDeleteThread, threadStream, type ThreadState } from '@tributary/domain';
import { z } from 'zod';
import { defineAssistantOperation } from './assistant-operation.js';
import { ownerOf } from './run-plan.js';

export const deleteThread = defineAssistantOperation({
  name: 'svc.assistant.delete_thread',
  title: 'Delete an assistant thread',
  description:
    'Deletes one of your threads: it, its messages and its plans leave every list and read (a plan of it ' +
    'can no longer be confirmed). The log keeps the events, as for every deletion.',
  kind: 'command',
  scopes: ['svc.assistant.write'],
  enabledFor: ['session', 'token'],
  actsForAgent: false,
  input: z.strictObject({ threadId: z.string().min(1).max(100) }),
  async run(ctx, input) {
    const stream = threadStream(input.threadId);
    const owner = ownerOf(ctx.principal);
    const { events } = await ctx.commit([stream], (states) =>
      decideDeleteThread(states.get(stream) as ThreadState, owner),
    );
    return { threadId: input.threadId, deleted: true, position: events[0]?.position ?? null };
  },
});
