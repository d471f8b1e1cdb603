import type { ProjectedEvent } from '@tributary/projections';
import type { Envelope } from '@tributary/domain';

export interface LogRow {
  position: string;
  tx_id?: string;
  seq?: string;
  envelope: string;
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
    actorId: e.actorId,
    occurredAt: e.occurredAt,
    data: e.data,
    ...(row.seq !== undefined && { sequence: Number(row.seq) }),
  };
}
