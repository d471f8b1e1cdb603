// The catalogue, by name, for operations that run other operations (the assistant's plan steps). The
// catalogue registers itself here when it is composed, so an area listed in the catalogue can find its
// peers without importing the catalogue (which imports every area: a cycle).
import type { Operation } from './operation.js';

type Lookup = (name: string) => Operation<unknown, unknown> | undefined;
let lookup: Lookup | undefined;

/** Called once by services/src/catalogue.ts. */
export function registerOperationLookup(l: Lookup): void {
  lookup = l;
}

/** An operation callable by name (as at /api/ops or as an MCP tool), or undefined. */
export function operationNamed(name: string): Operation<unknown, unknown> | undefined {
  if (!lookup) throw new Error('the catalogue was not composed');
  return lookup(name);
}
