// What a draft's history says beyond its head (docs/builder.md#undo): which state a revision holds (an
// undo or a redo holds the state of the revision it went to), whether the change a step would take back
// or make again is a restore of a published version, and whether the draft again holds the changes a
// rollback took off the site (docs/builder.md#rollback).
import {
  draftDocumentSchema,
  draftLinksOf,
  siteDraftStream,
  type BuilderEventData as EventData,
} from '@tributary/domain';
import type { StoredEvent } from '../ports/event-store.js';
import type { BuilderOperationContext } from './builder-operation.js';
import type { SiteView } from './ports/builder-read-models.js';
import type { PublicationState } from './publication-state.js';

/**
 * A site's draft revisions, read from the log as needed and kept for one operation: asking for an older
 * revision than any read so far reads from there to the head, once.
 */
export function draftHistory(ctx: BuilderOperationContext, siteId: string) {
  const stream = siteDraftStream(siteId);
  const byRevision = new Map<number, StoredEvent>();
  let lowest = Number.POSITIVE_INFINITY;
  const documents = new Map<number, string | null>();
  async function at(revision: number): Promise<StoredEvent | undefined> {
    if (!Number.isInteger(revision) || revision < 1) return undefined;
    if (revision < lowest) {
      const events =
        (await ctx.services.store.readStreams([stream], new Map([[stream, revision - 1]]))).get(stream) ?? [];
      for (const e of events) if (e.type === 'site.draft_saved') byRevision.set(e.streamVersion, e);
      lowest = revision;
    }
    return byRevision.get(revision);
  }
  return {
    at,
    /** The undo and redo links of a revision (null, null for one the draft has not reached). */
    async links(revision: number) {
      const e = await at(revision);
      return e ? draftLinksOf(e) : { undoTo: null, redoTo: null };
    },
    /**
     * The revision's document as text to compare (parsed as the schema reads it: the stored JSON's key
     * order is not the schema's), or null when there is none.
     */
    async documentText(revision: number): Promise<string | null> {
      if (documents.has(revision)) return documents.get(revision)!;
      const e = await at(revision);
      const parsed = e ? draftDocumentSchema.safeParse(e.data.document) : null;
      const text = parsed?.success ? JSON.stringify(parsed.data) : null;
      documents.set(revision, text);
      return text;
    },
  };
}
export type DraftHistory = ReturnType<typeof draftHistory>;

/**
 * The revision whose state `revision` holds: itself for an ordinary save or a restore; for an undo or a
 * redo, the state of the revision it went to. A step is always saved over the head, so the revision
 * before it is where it was taken, and that one's links name where it went.
 */
export async function stateOf(history: DraftHistory, revision: number): Promise<number> {
  let r = revision;
  // Links only ever point back, so this ends; the bound is a guard against a damaged stream.
  for (let hops = 0; hops < 10_000; hops++) {
    const e = await history.at(r);
    const step = e ? (e.data as EventData<'site.draft_saved'>).step : undefined;
    if (step === undefined) return r;
    const taken = await history.links(r - 1);
    const to = step === 'undo' ? taken.undoTo : taken.redoTo;
    if (to === null || to >= r) return r;
    r = to;
  }
  return r;
}

/** A restore of a published version into the draft, as the history keeps it. */
export interface DraftRestore {
  versionId: string;
  /** When that version was first published. */
  versionPublishedAt: string;
  /** When it was restored into the draft. */
  restoredAt: string;
  /** The draft revision the restore saved. */
  revision: number;
}

/**
 * The restore that saved draft revision `revision`, or null when that revision was not a restore: one
 * indexed read of the history, however long it is.
 */
export async function restoreAt(
  ctx: BuilderOperationContext,
  siteId: string,
  revision: number,
): Promise<DraftRestore | null> {
  const h = await ctx.services.builder.read.restoreSaving(siteId, revision);
  if (!h || h.draftRevision === null || h.versionId === null) return null;
  return {
    versionId: h.versionId,
    versionPublishedAt: h.versionPublishedAt ?? h.at,
    restoredAt: h.at,
    revision: h.draftRevision,
  };
}

/**
 * Whether the draft holds the changes the site's last rollback back took off it, so that publishing
 * would put them online again (read_site's `draftHoldsRolledBack`). The draft's states are followed back
 * from the head through its undo links — the states an editor's Undo would pass. It holds them when that
 * walk reaches the state the rolled-back version was made from (or an older one) before any state holding
 * the content of a version put online or into the draft since that rollback (a restore, the content put
 * back by hand, a later publish, a rollback forward). So an edit after a restore is new work, while an
 * undo that takes the restore back brings the warning back, also when a publish came in between.
 */
export async function draftHoldsRolledBack(
  ctx: BuilderOperationContext,
  site: SiteView,
  state: PublicationState,
): Promise<boolean> {
  if (state !== 'unpublished_changes' || !site.publishedVersionId) return false;
  const read = ctx.services.builder.read;
  // The site's last rollback that went back (a rollback to a version first published before the one it
  // replaced; on equal times, the one made from the older draft revision), and the draft revisions of
  // what was put online or into the draft since (the rollback's own target among them): one read,
  // however long the history.
  const back = await read.lastRollbackBack(site.siteId);
  if (!back) return false;
  const head = await read.draft(site.siteId);
  if (!head) return false;
  const history = draftHistory(ctx, site.siteId);
  const revisions = back.draftRevisionsSince;
  // Oldest first: the draft is read once, from there to its head.
  const clean = new Set<string>();
  for (const revision of revisions) {
    const text = await history.documentText(revision);
    if (text !== null) clean.add(text);
  }
  // State by state: an undo holds the state it went to, whose own revision tells where it was made.
  let r: number | null = head.revision;
  while (r !== null) {
    r = await stateOf(history, r);
    const text = await history.documentText(r);
    if (text !== null && clean.has(text)) return false;
    if (r <= back.replacedDraftRevision) return true;
    r = (await history.links(r)).undoTo;
  }
  return false;
}
