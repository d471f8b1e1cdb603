// This area's operations, in the order tools/list and the OpenAPI document show them.
import type { AnyOperation } from '../pipeline/operation.js';
import { acceptAssertion } from './accept-assertion.js';
import { delegatedSignUp, delegatedSiteAccount } from './delegated-accounts.js';
import { issueAssertion } from './issue-assertion.js';
import { endRemoteSessions, listRemoteSessions } from './remote-sessions.js';
import { sessionHandoff } from './session-handoff.js';
import { verifyRemotePassword } from './verify-password.js';

export const ssoOperations: readonly AnyOperation[] = [
  listRemoteSessions,
  endRemoteSessions,
  issueAssertion,
  acceptAssertion,
  sessionHandoff,
  verifyRemotePassword,
  delegatedSignUp,
  delegatedSiteAccount,
];
