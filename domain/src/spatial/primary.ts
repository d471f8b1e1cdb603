// The instance's primary world: what GET /wow/world serves. Chosen by the operator (or the primary
// agent's controller); without a choice, services fall back to the primary agent's first public world.
import type { NewEvent } from '../shared/envelope.js';
import { invalid } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { SpatialEventData } from './events.js';
import { SPATIAL_PRIMARY_STREAM } from './streams.js';
import type { WorldState } from './world.js';

export interface PrimaryWorldState {
  worldId: string | null;
}

export const initialPrimaryWorldState = (): PrimaryWorldState => ({ worldId: null });

export function evolvePrimaryWorld(state: PrimaryWorldState, event: StoredEventLike): PrimaryWorldState {
  if (event.type !== 'spatial.primary_world_set') return state;
  return { worldId: (event.data as SpatialEventData<'spatial.primary_world_set'>).worldId };
}

/** Only a public world can be the one the instance shows to everyone; null returns to the default. */
export function decideSetPrimaryWorld(
  cmd: { worldId: string | null },
  state: { primary: PrimaryWorldState; world: WorldState | null },
): NewEvent[] {
  if (cmd.worldId !== null && (!state.world?.exists || state.world.visibility !== 'public'))
    throw invalid('spatial.world_not_public', 'the primary world must be a public world of this instance');
  if (state.primary.worldId === cmd.worldId) return [];
  return [
    { stream: SPATIAL_PRIMARY_STREAM, type: 'spatial.primary_world_set', data: { worldId: cmd.worldId } },
  ];
}
