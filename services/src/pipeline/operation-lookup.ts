// The catalogue, by name, for operations that run other operations (the assistant's plan steps). The
// catalogue registers itself here when it is composed, so an area listed in the catalogue can find its
// peers without importing the catalogue (which imports every area: a cycle).
import type { Operation } from './operation.js';

type Lookup = (name: string) => Operation<unknown, unknown> | undefined;
let lookup: Lookup | undefined;
let toolList: (() => Operation<unknown, unknown>[]) | undefined;

/** Called once by services/src/catalogue.ts: lookup by name, and the MCP tools in catalogue order. */
export function registerOperationLookup(l: Lookup, tools?: () => Operation<unknown, unknown>[]): void {
  lookup = l;
  toolList = tools;
}

/** The MCP tools (operations whose `enabledFor` is not empty), in catalogue order: what a chat may offer. */
export function catalogueTools(): Operation<unknown, unknown>[] {
  if (!toolList) throw new Error('the catalogue was not composed');
  return toolList();
}

/** An operation callable by name (as at /api/ops or as an MCP tool), or undefined. */
export function operationNamed(name: string): Operation<unknown, unknown> | undefined {
  if (!lookup) throw new Error('the catalogue was not composed');
  return lookup(name);
}
