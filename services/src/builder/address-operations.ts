// The address operations (docs/builder.md#addresses), part of the builder area's list (operations.ts).
import type { AnyOperation } from '../pipeline/operation.js';
import { claimAddress } from './claim-address.js';
import { deregisterAddress } from './deregister-address.js';
import { recordAddressInstance } from './record-address-instance.js';
import { registerAddress } from './register-address.js';
import { releaseAddress } from './release-address.js';

export const addressOperations: readonly AnyOperation[] = [
  claimAddress,
  releaseAddress,
  registerAddress,
  deregisterAddress,
  recordAddressInstance,
];
