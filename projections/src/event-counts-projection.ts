import type { Projection } from './projection.js';

/** Async: how many events of each type the log holds, behind a checkpoint. */
export const eventCountsProjection: Projection = {
  name: 'event-counts',
  mode: 'async',
  tables: ['rm_event_counts'],
  handles: ['*'],
  async apply(db, e) {
    await db.query(
      `INSERT INTO rm_event_counts (type, count, last_seq) VALUES ($1, 1, $2)
       ON CONFLICT (type) DO UPDATE SET count = rm_event_counts.count + 1, last_seq = excluded.last_seq`,
      [e.type, e.sequence ?? 0],
    );
  },
};
