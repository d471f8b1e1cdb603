import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from './shared/projection.js';

const countStatements = (e: ProjectedEvent): SqlStatement[] => [
  {
    text: `INSERT INTO rm_event_counts (type, count, last_seq) VALUES ($1, 1, $2)
           ON CONFLICT (type) DO UPDATE SET count = rm_event_counts.count + 1, last_seq = excluded.last_seq`,
    values: [e.type, e.sequence ?? 0],
  },
];

/** Async: how many events of each type the log holds, behind a checkpoint. */
export const eventCountsProjection: Projection = {
  name: 'event-counts',
  mode: 'async',
  tables: ['rm_event_counts'],
  handles: ['*'],
  // Peers' events are counted too (and the log's columns alone cannot tell them from ours).
  foldsImported: true,
  // Counts by type: the envelopes need not be read.
  metadataOnly: true,
  // The runner's fold: counted in the database, one row per type (as applyMany).
  foldSql: `INSERT INTO rm_event_counts (type, count, last_seq)
            SELECT type, count(*), max(seq) FROM batch GROUP BY type
            ON CONFLICT (type) DO UPDATE SET count = rm_event_counts.count + excluded.count,
              last_seq = excluded.last_seq`,
  statements: countStatements,
  apply: (db, e) => runStatements(db, countStatements(e)),
  // A batch touches one row per type, not one update per event.
  async applyMany(db, events) {
    const byType = new Map<string, { count: number; lastSeq: number }>();
    for (const e of events) {
      const t = byType.get(e.type) ?? { count: 0, lastSeq: 0 };
      t.count += 1;
      t.lastSeq = Math.max(t.lastSeq, e.sequence ?? 0);
      byType.set(e.type, t);
    }
    await db.query(
      `INSERT INTO rm_event_counts (type, count, last_seq)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
       ON CONFLICT (type) DO UPDATE SET count = rm_event_counts.count + excluded.count, last_seq = excluded.last_seq`,
      [
        [...byType.keys()],
        [...byType.values()].map((t) => t.count),
        [...byType.values()].map((t) => t.lastSeq),
      ],
    );
  },
};
