// The assistant's ports (docs/assistant.md): each part of the assistant fills its own here.
import type { AssistantPorts } from '@tributary/services';
import type { Pool } from 'pg';
import { createPgRemoteViewerCredentials } from '../assistant/pg-remote-viewer-credentials.js';

export function composeAssistant(o: { pool: Pool }): Omit<AssistantPorts, 'read'> {
  return {
    remoteViewers: createPgRemoteViewerCredentials(o.pool),
  };
}
