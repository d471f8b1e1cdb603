import { runStatements, type ProjectedEvent, type Projection, type SqlStatement } from './projection.js';

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
  statements: countStatements,
  apply: (db, e) => runStatements(db, countStatements(e)),
};
