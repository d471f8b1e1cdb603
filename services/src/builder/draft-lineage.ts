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
import type { SiteHistoryEntryView, SiteView } from './ports/builder-read-models.js';
import type { PublicationState } from './publication-state.js';

/** How many entries of a site's history are read at a time when looking back through it. */
const HISTORY_PAGE = 100;

/**
 * A site's history, newest first, read a page at a time for as long as the caller keeps looking: as far
 * back as the site's first publish, however long its history is.
 */
async function* historyNewestFirst(
  ctx: BuilderOperationContext,
  siteId: string,
): AsyncGenerator<SiteHistoryEntryView> {
  let before: number | undefined;
  for (;;) {
    const page = await ctx.services.builder.read.historyOf(siteId, { limit: HISTORY_PAGE, before });
    yield* page;
    if (page.length < HISTORY_PAGE) return;
    before = page[page.length - 1]!.seq;
  }
}

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
 * The restore that saved draft revision `revision`, or null when that revision was not a restore: the
 * history is read from its newest entry back to that restore, or to an older one (restores saved the
 * draft's revisions in the order they were made).
 */
export async function restoreAt(
  ctx: BuilderOperationContext,
  siteId: string,
  revision: number,
): Promise<DraftRestore | null> {
  for await (const h of historyNewestFirst(ctx, siteId)) {
    if (h.action !== 'restored' || h.draftRevision === null || h.versionId === null) continue;
    if (h.draftRevision < revision) return null;
    if (h.draftRevision === revision)
      return {
        versionId: h.versionId,
        versionPublishedAt: h.versionPublishedAt ?? h.at,
        restoredAt: h.at,
        revision: h.draftRevision,
      };
  }
  return null;
}

/**
 * A rollback that went back: to a version first published before the one it replaced. Two publishes in
 * the same millisecond (an agent's quick succession) have equal times; then the version made from the
 * older draft revision is the earlier one, as draft revisions only grow.
 */
async function wentBack(ctx: BuilderOperationContext, siteId: string, h: SiteHistoryEntryView) {
  if (
    h.action !== 'rolled_back' ||
    h.versionId === null ||
    h.replacedVersionId === null ||
    h.versionPublishedAt === null ||
    h.replacedVersionPublishedAt === null
  )
    return false;
  const to = Date.parse(h.versionPublishedAt);
  const replaced = Date.parse(h.replacedVersionPublishedAt);
  if (to !== replaced) return to < replaced;
  const read = ctx.services.builder.read;
  const [target, from] = await Promise.all([
    read.version(siteId, h.versionId),
    read.version(siteId, h.replacedVersionId),
  ]);
  return !!target && !!from && target.draftRevision < from.draftRevision;
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
  // The history back to the last rollback back, however far that is (the entries since, it included).
  const entries: SiteHistoryEntryView[] = [];
  let back: SiteHistoryEntryView | undefined;
  for await (const h of historyNewestFirst(ctx, site.siteId)) {
    entries.push(h);
    if (await wentBack(ctx, site.siteId, h)) {
      back = h;
      break;
    }
  }
  if (!back) return false;
  const from = await read.version(site.siteId, back.replacedVersionId!);
  const head = await read.draft(site.siteId);
  if (!from || !head) return false;
  const history = draftHistory(ctx, site.siteId);
  // What was put online or into the draft since (the rollback's own target among them).
  const since = new Set(entries.flatMap((h) => (h.versionId === null ? [] : [h.versionId])));
  const revisions = (await Promise.all([...since].map((id) => read.version(site.siteId, id))))
    .flatMap((v) => (v ? [v.draftRevision] : []))
    .sort((x, y) => x - y);
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
    if (r <= from.draftRevision) return true;
    r = (await history.links(r)).undoTo;
  }
  return false;
}
