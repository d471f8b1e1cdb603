// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { auditRecent } from './audit-recent.js';
import { issueToken } from './issue-token.js';
import { listTokens } from './list-tokens.js';
import { revokeToken } from './revoke-token.js';

export const tokensOperations: readonly AnyOperation[] = [issueToken, listTokens, revokeToken, auditRecent];
