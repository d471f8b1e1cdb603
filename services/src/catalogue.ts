// The one catalogue (docs/architecture.md#operations), composed from every area's list of operations. MCP tools/list, scope
// checks, the assistant's plan validation and the OpenAPI document are all derived from it.
import type { Area } from '@tributary/domain';
import { accountsOperations } from './accounts/operations.js';
import { adminOperations } from './admin/operations.js';
import { agentsOperations } from './agents/operations.js';
import { assistantOperations } from './assistant/operations.js';
import { builderOperations } from './builder/operations.js';
import { federationOperations } from './federation/operations.js';
import { instanceOperations } from './instance/operations.js';
import { mailOperations } from './mail/operations.js';
import { manifestsOperations } from './manifests/operations.js';
import { oauthOperations } from './oauth/operations.js';
import { paymentsOperations } from './payments/operations.js';
import type { AnyOperation, Operation } from './pipeline/operation.js';
import { registerOperationLookup } from './pipeline/operation-lookup.js';
import { spatialOperations } from './spatial/operations.js';
import { ssoOperations } from './sso/operations.js';
import { tokensOperations } from './tokens/operations.js';

/** Each area's operations, in the order tools/list and the OpenAPI document show them. */
export const AREA_OPERATIONS = {
  accounts: accountsOperations,
  instance: instanceOperations,
  agents: agentsOperations,
  admin: adminOperations,
  tokens: tokensOperations,
  federation: federationOperations,
  oauth: oauthOperations,
  builder: builderOperations,
  spatial: spatialOperations,
  assistant: assistantOperations,
  manifests: manifestsOperations,
  payments: paymentsOperations,
  mail: mailOperations,
  sso: ssoOperations,
} as const satisfies Record<Area, readonly AnyOperation[]>;

/** Every operation. */
const CATALOGUE: readonly AnyOperation[] = Object.values(AREA_OPERATIONS).flat();

const operations = new Map<string, AnyOperation>();
for (const op of CATALOGUE) {
  if (operations.has(op.name)) throw new Error(`duplicate operation ${op.name}`);
  if (op.enabledFor.length > 0 && op.scopes.length === 0)
    throw new Error(`${op.name}: an MCP tool must require at least one scope`);
  if (op.ownEndpoint && op.enabledFor.length > 0)
    throw new Error(`${op.name}: an operation with its own endpoint is not an MCP tool`);
  if (op.remoteViewer && op.kind !== 'query')
    throw new Error(`${op.name}: only a query may be run by a remote viewer`);
  operations.set(op.name, op);
}

/** Every operation of the catalogue, those reached only at their own endpoint included. */
export const catalogueOperations = (): Operation<unknown, unknown>[] =>
  CATALOGUE as unknown as Operation<unknown, unknown>[];

/** An operation callable by name (at /api/ops, as an MCP tool, from the CLI or a peer mutation). */
export const getOperation = (name: string): Operation<unknown, unknown> | undefined => {
  const op = operations.get(name) as Operation<unknown, unknown> | undefined;
  return op && !op.ownEndpoint ? op : undefined;
};
registerOperationLookup(getOperation, () => mcpTools());
/** The operations callable by name, in catalogue order. */
export const allOperations = (): Operation<unknown, unknown>[] =>
  catalogueOperations().filter((op) => !op.ownEndpoint);
export const mcpTools = () => allOperations().filter((op) => op.enabledFor.length > 0);
