// The travellers' half of the spatial area's operations (docs/spatial.md#travellers), composed into the
// area's list (operations.ts) after the worlds'.
import type { AnyOperation } from '../pipeline/operation.js';
import { admitTraveller } from './presence-admit.js';
import { readPresence } from './presence-read.js';
import { presentTraveller } from './traveller-present.js';

export const travellerOperations: readonly AnyOperation[] = [presentTraveller, admitTraveller, readPresence];
