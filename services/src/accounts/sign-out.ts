import { decideEndSession, sessionStream, type SessionState } from '@tributary/domain';
import { z } from 'zod';
import { defineAccountsOperation } from './accounts-operation.js';

export const signOut = defineAccountsOperation({
  name: 'svc.auth.sign_out',
  title: 'Sign out',
  description: 'End the current session.',
  kind: 'command',
  scopes: [],
  enabledFor: [],
  actsForAgent: false,
  input: z.strictObject({}),
  async run(ctx): Promise<{ signedOut: boolean }> {
    if (ctx.principal.kind !== 'session') return { signedOut: false };
    const stream = sessionStream(ctx.principal.sessionId);
    const sessionId = ctx.principal.sessionId;
    await ctx.commit([stream], (states) =>
      decideEndSession(sessionId, 'sign_out', states.get(stream) as SessionState),
    );
    return { signedOut: true };
  },
});
