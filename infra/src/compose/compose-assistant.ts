// The assistant's ports (docs/assistant.md): each part of the assistant fills its own here, and the
// assistant area gathers them with its reads.
import type { AssistantPorts } from '@tributary/services';
import type { Pool } from 'pg';
import { createPgRemoteViewerCredentials } from '../assistant/pg-remote-viewer-credentials.js';
import { defineArea } from './area.js';
import { assistantAccountHooks, composeAssistantAccount } from './compose-assistant-account.js';
import { composeAssistantAttachments } from './compose-assistant-attachments.js';
import { composeAssistantChat } from './compose-assistant-chat.js';
import { composeAssistantPlans } from './compose-assistant-plans.js';
import { builderBlobs } from './compose-builder.js';
import { withSsoRevocation } from './compose-sso.js';

export function composeAssistant(o: { pool: Pool }): Omit<AssistantPorts, 'read'> {
  return {
    remoteViewers: createPgRemoteViewerCredentials(o.pool),
  };
}

export const assistantArea = defineArea((ctx) => {
  const own = composeAssistant(ctx);
  return {
    services: {
      assistantChat: composeAssistantChat(ctx),
      // The account's state and models reach the status and settings routes through these hooks.
      assistant: {
        ...own,
        // A remote-viewer credential minted by single sign-on ends with its person's authority revocation.
        remoteViewers: withSsoRevocation(own.remoteViewers, ctx.pool),
        ...assistantAccountHooks(ctx.services),
        read: {
          threads: ctx.read.assistantThreads,
          vault: ctx.read.assistantVault,
          attachments: ctx.read.assistantAttachments,
        },
      },
      assistantAccount: composeAssistantAccount(ctx),
      // Attachments' bytes sit beside the builder's media, in the same content-addressed store.
      assistantAttachments: composeAssistantAttachments({
        config: ctx.config,
        blobs: builderBlobs(ctx.config),
      }),
      assistantPlans: composeAssistantPlans(ctx.config),
    },
  };
});
