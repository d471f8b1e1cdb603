// The site server's change feed (docs/builder.md#serving): for every event that can change what a site
// serves — its publication, suspension, addresses, domain bindings — one bump of a per-key counter and a
// NOTIFY with the key, both in the append's own transaction, so a listener hears of a change only once
// the read models hold it. Statements only: an append stays one round trip.
import { allEventDefinitions } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

/** The channel every process of an instance LISTENs on; the payload is the change key. */
export const SITE_SERVING_CHANNEL = 'tributary_site_serving';

/** Site events that never change what is served (frequent ones above all: every draft save, preview). */
const NOT_SERVING = new Set([
  'site.created',
  'site.settings_updated',
  'site.draft_saved',
  'site.version_created',
]);

/**
 * The key of what an event changes: the site its data or its `site-<id>` stream names, or the domain of
 * a `domain-<name>` stream (a binding's checks name only the domain). Undefined: nothing to follow.
 */
export function servingChangeKey(e: Pick<ProjectedEvent, 'stream' | 'data'>): string | undefined {
  const siteId = e.data.siteId;
  if (typeof siteId === 'string') return siteId;
  if (e.stream.startsWith('site-')) return e.stream.slice('site-'.length);
  if (e.stream.startsWith('domain-')) return `domain:${e.stream.slice('domain-'.length)}`;
  return undefined;
}

// A peer's sites are not served here: no foldsImported.
function servingStatements(e: ProjectedEvent): SqlStatement[] {
  const key = servingChangeKey(e);
  if (key === undefined) return [];
  return [
    {
      text: `INSERT INTO rm_builder_serving_changes AS c (change_key, changes) VALUES ($1, 1)
             ON CONFLICT (change_key) DO UPDATE SET changes = c.changes + 1`,
      values: [key],
    },
    { text: `SELECT pg_notify('${SITE_SERVING_CHANNEL}', $1)`, values: [key] },
  ];
}

export const siteServingProjection: Projection = {
  name: 'builder-site-serving',
  mode: 'inline',
  tables: ['rm_builder_serving_changes'],
  // Every site event but those above, so events later parts add (addresses, domains) are followed too.
  handles: allEventDefinitions()
    .map((d) => d.type)
    .filter((t) => t.startsWith('site.') && !NOT_SERVING.has(t)),
  statements: servingStatements,
  apply: (db, e) => runStatements(db, servingStatements(e)),
};
