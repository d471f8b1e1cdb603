// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { addPortal } from './add-portal.js';
import { addView } from './add-view.js';
import { createWorld } from './create-world.js';
import { listWorlds } from './list-worlds.js';
import { readGraph } from './read-graph.js';
import { readWorld } from './read-world.js';
import { registerTag } from './register-tag.js';
import { removePortal } from './remove-portal.js';
import { removeTag } from './remove-tag.js';
import { removeView } from './remove-view.js';
import { saveGraph } from './save-graph.js';
import { setNodeState } from './set-node-state.js';
import { setPrimaryWorld } from './set-primary-world.js';
import { updateWorld } from './update-world.js';
import { travellerOperations } from './traveller-operations.js';

export const spatialOperations: readonly AnyOperation[] = [
  listWorlds,
  createWorld,
  readWorld,
  updateWorld,
  readGraph,
  saveGraph,
  addView,
  removeView,
  addPortal,
  removePortal,
  setNodeState,
  registerTag,
  removeTag,
  setPrimaryWorld,
  ...travellerOperations,
];
