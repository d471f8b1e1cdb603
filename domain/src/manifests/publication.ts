// The per-agent publication flag of universal manifests: off until the agent's owner turns it on.
import { streamAggregate } from '../shared/aggregate.js';
import type { NewEvent } from '../shared/envelope.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';

/** The entity kinds that have a universal manifest here (`/api/universal-manifest/<kind>/<id>`). */
export const MANIFEST_KINDS = ['person', 'organization', 'site', 'world'] as const;
export type ManifestKind = (typeof MANIFEST_KINDS)[number];

/** Which agent kinds each agent manifest kind covers (a persona is one of a person's public faces). */
export const AGENT_KINDS_OF_MANIFEST: Record<'person' | 'organization', readonly string[]> = {
  person: ['person', 'persona'],
  organization: ['group', 'locale', 'region'],
};

export const manifestPublicationStream = (agentId: string) => `manifest-publication-${agentId}`;

export interface ManifestPublicationState {
  published: boolean;
  /** Events folded: 0 means the owner never chose (so: not published). */
  changes: number;
}

export const manifestPublicationStreams = streamAggregate<ManifestPublicationState>('manifest-publication-', {
  initial: () => ({ published: false, changes: 0 }),
  evolve: (s: ManifestPublicationState, e: StoredEventLike) =>
    e.type === 'manifest.publication_set'
      ? { published: (e.data as { published: boolean }).published, changes: s.changes + 1 }
      : s,
});

/** Sets the flag; setting it to what it already is writes nothing. */
export function decideSetManifestPublication(
  cmd: { agentId: string; published: boolean },
  state: ManifestPublicationState,
): NewEvent[] {
  if (state.published === cmd.published) return [];
  return [
    {
      stream: manifestPublicationStream(cmd.agentId),
      type: 'manifest.publication_set',
      data: { agentId: cmd.agentId, published: cmd.published },
    },
  ];
}
