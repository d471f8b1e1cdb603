// Inline projection of what was live when (docs/builder.md#history): every publish, rollback and restore
// of a site, and every suspension and its lifting by an operator, in the order of its stream, into
// rm_builder_history. A rollback names the version it
// replaced (its event says so); a publish replaced the version of the row before it that changed what is
// live, which the statement reads in SQL, so an append stays one round trip. A restore changes the draft,
// not what is live: it replaces nothing, and keeps the draft revision it saved (migration 0110), which an
// undo looks for (docs/builder.md#undo). A suspension keeps its reason and concerns no version (migration
// 0111). Only this instance's own sites (no foldsImported), as builder-sites.
import type { BuilderEventData as EventData } from '@tributary/domain';
import {
  runStatements,
  type ProjectedEvent,
  type Projection,
  type SqlStatement,
} from '../shared/projection.js';

const SITE_PREFIX = 'site-';
const siteOf = (e: ProjectedEvent) => e.stream.slice(SITE_PREFIX.length);

const INSERT = `INSERT INTO rm_builder_history (site_id, seq, action, version_id, replaced_version_id, actor_id, at, draft_revision, reason)`;

function historyStatements(e: ProjectedEvent): SqlStatement[] {
  switch (e.type) {
    case 'site.published': {
      const d = e.data as EventData<'site.published'>;
      return [
        {
          text: `${INSERT}
                 VALUES ($1, $2, 'published', $3,
                   (SELECT version_id FROM rm_builder_history
                     WHERE site_id = $1 AND action IN ('published', 'rolled_back') AND seq < $2
                     ORDER BY seq DESC LIMIT 1),
                   $4, $5, NULL, NULL)`,
          values: [siteOf(e), e.streamVersion, d.versionId, e.actorId, e.occurredAt],
        },
      ];
    }
    case 'site.rolled_back': {
      const d = e.data as EventData<'site.rolled_back'>;
      return [
        {
          text: `${INSERT} VALUES ($1, $2, 'rolled_back', $3, $4, $5, $6, NULL, NULL)`,
          values: [siteOf(e), e.streamVersion, d.versionId, d.fromVersionId, e.actorId, e.occurredAt],
        },
      ];
    }
    case 'site.version_restored': {
      const d = e.data as EventData<'site.version_restored'>;
      return [
        {
          text: `${INSERT} VALUES ($1, $2, 'restored', $3, NULL, $4, $5, $6, NULL)`,
          values: [siteOf(e), e.streamVersion, d.versionId, e.actorId, e.occurredAt, d.draftRevision],
        },
      ];
    }
    case 'site.suspended': {
      const d = e.data as EventData<'site.suspended'>;
      return [
        {
          text: `${INSERT} VALUES ($1, $2, 'suspended', NULL, NULL, $3, $4, NULL, $5)`,
          values: [siteOf(e), e.streamVersion, e.actorId, e.occurredAt, d.reason],
        },
      ];
    }
    case 'site.unsuspended':
      return [
        {
          text: `${INSERT} VALUES ($1, $2, 'unsuspended', NULL, NULL, $3, $4, NULL, NULL)`,
          values: [siteOf(e), e.streamVersion, e.actorId, e.occurredAt],
        },
      ];
    default:
      return [];
  }
}

export const builderHistoryProjection: Projection = {
  name: 'builder-history',
  mode: 'inline',
  tables: ['rm_builder_history'],
  handles: [
    'site.published',
    'site.rolled_back',
    'site.version_restored',
    'site.suspended',
    'site.unsuspended',
  ],
  statements: historyStatements,
  apply: (db, e) => runStatements(db, historyStatements(e)),
};
