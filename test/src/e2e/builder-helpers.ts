// What the builder's end-to-end suites share.
import { builderProjections } from '@tributary/projections';
import type { Pool } from 'pg';

/**
 * What a refusal must leave alone: the log's events apart from provenance entries (a refused MCP call
 * records one), and every row of every builder read model.
 */
export async function builderFootprint(pool: Pool) {
  const events = await pool.query(`SELECT count(*) AS n FROM events WHERE type <> 'provenance.recorded'`);
  const tables: Record<string, unknown[]> = {};
  for (const p of builderProjections)
    for (const t of p.tables) tables[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1, 2`)).rows;
  return { events: Number(events.rows[0].n), tables };
}
