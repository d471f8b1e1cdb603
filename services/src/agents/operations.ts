// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { createPersona } from './create-persona.js';
import { deletePersona } from './delete-persona.js';
import { listPersonas } from './list-personas.js';
import { readMyEvents } from './read-my-events.js';
import { readProfile } from './read-profile.js';
import { updateProfile } from './update-profile.js';

export const agentsOperations: readonly AnyOperation[] = [
  createPersona,
  deletePersona,
  listPersonas,
  readProfile,
  updateProfile,
  readMyEvents,
];
