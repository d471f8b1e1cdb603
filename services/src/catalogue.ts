// The one catalogue (ARCHITECTURE §4). MCP tools/list, scope checks, the assistant's plan validation and
// the OpenAPI document are all derived from it.
import { exportAccountData } from './accounts/export-data.js';
import { signIn } from './accounts/sign-in.js';
import { signOut } from './accounts/sign-out.js';
import { signUp } from './accounts/sign-up.js';
import { grantController } from './admin/grant-controller.js';
import { moveController } from './admin/move-controller.js';
import { auditRecent } from './tokens/audit-recent.js';
import { readFeedTool } from './federation/read-feed.js';
import { readMyEvents } from './agents/read-my-events.js';
import { registerPeer } from './federation/register-peer.js';
import { updatePeer } from './federation/update-peer.js';
import { listPeers } from './federation/list-peers.js';
import { federationEquivocations } from './federation/list-equivocations.js';
import { federationStatus } from './federation/status.js';
import { instanceContext } from './instance/read-context.js';
import { createPersona } from './agents/create-persona.js';
import { deletePersona } from './agents/delete-persona.js';
import { listPersonas } from './agents/list-personas.js';
import { readProfile } from './agents/read-profile.js';
import { updateProfile } from './agents/update-profile.js';
import { issueToken } from './tokens/issue-token.js';
import { revokeToken } from './tokens/revoke-token.js';
import { listTokens } from './tokens/list-tokens.js';
import type { Operation } from './pipeline/operation.js';

const operations = new Map<string, Operation<never, unknown>>();

export function registerOperations(ops: readonly Operation<never, unknown>[]) {
  for (const op of ops) {
    if (operations.has(op.name)) throw new Error(`duplicate operation ${op.name}`);
    if (op.enabledFor.length > 0 && op.scopes.length === 0)
      throw new Error(`${op.name}: an MCP tool must require at least one scope`);
    operations.set(op.name, op);
  }
}

registerOperations([
  signUp,
  signIn,
  signOut,
  instanceContext,
  createPersona,
  deletePersona,
  listPersonas,
  readProfile,
  updateProfile,
  grantController,
  moveController,
  readFeedTool,
  readMyEvents,
  // Agent access (issue 3).
  issueToken,
  listTokens,
  revokeToken,
  auditRecent,
  exportAccountData,
  // Federation (issue 5).
  registerPeer,
  updatePeer,
  listPeers,
  federationStatus,
  federationEquivocations,
] as unknown as Operation<never, unknown>[]);

export const getOperation = (name: string): Operation<unknown, unknown> | undefined =>
  operations.get(name) as Operation<unknown, unknown> | undefined;
export const allOperations = (): Operation<unknown, unknown>[] =>
  [...operations.values()] as Operation<unknown, unknown>[];
export const mcpTools = () => allOperations().filter((op) => op.enabledFor.length > 0);
