// The custom-domain operations of the builder area (docs/builder.md#domains).
import type { AnyOperation } from '../pipeline/operation.js';
import { bindDomain } from './bind-domain.js';
import { checkDomain } from './check-domain.js';
import { listDomains } from './list-domains.js';
import { unbindDomain } from './unbind-domain.js';

export const builderDomainOperations: readonly AnyOperation[] = [
  bindDomain,
  unbindDomain,
  listDomains,
  checkDomain,
];
