import type { ProjectedEvent } from '@tributary/projections';
import type { Envelope } from '@tributary/domain';

export interface LogRow {
  position: string;
  tx_id?: string;
  seq?: string;
  envelope: string;
  /** The local stream and actor columns: they differ from the envelope's for events imported from peers. */
  stream?: string;
  actor_id?: string;
}

/** What a projection sees of a stored row (the envelope text is the source of truth). */
export function projectedFrom(row: LogRow): ProjectedEvent {
  const e = JSON.parse(row.envelope) as Envelope;
  return {
    id: e.id,
    type: e.type,
    origin: e.origin,
    stream: e.stream,
    streamVersion: e.streamVersion,
    actorId: row.actor_id ?? e.actorId,
    occurredAt: e.occurredAt,
    data: e.data,
    ...(row.seq !== undefined && { sequence: Number(row.seq) }),
    // Imported events sit under `<origin>/<stream>` locally, with the actor bound to a local agent.
    ...(row.stream !== undefined && row.stream !== e.stream && { imported: true }),
  };
}
