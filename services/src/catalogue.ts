// The one catalogue (ARCHITECTURE §4). MCP tools/list, scope checks, the assistant's plan validation and
// the OpenAPI document are all derived from it.
import { exportAccountData } from './operations/account-export-data.js';
import { signIn } from './operations/account-sign-in.js';
import { signOut } from './operations/account-sign-out.js';
import { signUp } from './operations/account-sign-up.js';
import { grantController, moveController } from './operations/controller-grant.js';
import { auditRecent } from './operations/audit-recent.js';
import { readFeedTool } from './operations/feed-read.js';
import { readMyEvents } from './operations/log-read-mine.js';
import { registerPeer } from './operations/peer-register.js';
import { updatePeer } from './operations/peer-update.js';
import { listPeers } from './operations/peers-list.js';
import { federationEquivocations } from './operations/federation-equivocations.js';
import { federationStatus } from './operations/federation-status.js';
import { instanceContext } from './operations/instance-context.js';
import { createPersona } from './operations/persona-create.js';
import { deletePersona } from './operations/persona-delete.js';
import { listPersonas } from './operations/personas-list.js';
import { readProfile } from './operations/profile-read.js';
import { updateProfile } from './operations/profile-update.js';
import { issueToken } from './operations/token-issue.js';
import { revokeToken } from './operations/token-revoke.js';
import { listTokens } from './operations/tokens-list.js';
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
