// The draft of a site rendered into a candidate version, its files stored, and the commit that records
// it (docs/builder.md#publishing). The version id is a name-based UUID of the site and
// the manifest hash: the same content of the same site is always the same version, so two renders at
// once (two previews, two publishes) decide the same event and the log keeps one.
import {
  DomainError,
  draftReferences,
  invalid,
  siteStream,
  type DraftDocument,
  type ManifestEntry,
  type NewEvent,
  type SiteState,
  uuidV8FromDigest,
} from '@tributary/domain';
import type { CommitResult } from '../pipeline/operation.js';
import type { BuilderOperationContext } from './builder-operation.js';
import type { BlobStore } from './ports/blob-store.js';
import type { SiteView } from './ports/builder-read-models.js';
import type { Ids } from '../ports/runtime.js';
import { formsForRender } from './form-views.js';
import { manifestHash, manifestOf } from './manifest.js';
import type { RenderForm, RenderMedia, RenderedFile } from './render/render-input.js';
import { renderSite } from './render/render-site.js';

export interface RenderedDraft {
  siteId: string;
  versionId: string;
  draftRevision: number;
  document: DraftDocument;
  files: RenderedFile[];
  manifest: ManifestEntry[];
  manifestHash: string;
}

/** A site's version id: a name-based UUID (RFC 9562 version 8, from SHA-256) of the site and content. */
export function versionIdOf(ids: Pick<Ids, 'sha256'>, siteId: string, hash: string): string {
  return uuidV8FromDigest(ids.sha256(`tributary:builder:version:${siteId}:${hash}`));
}

const unknownReference = (what: 'media item' | 'form', id: string) =>
  invalid('builder.unknown_reference', `the draft names a ${what} you do not hold`, {
    [what === 'form' ? 'formId' : 'mediaId']: id,
  });

/** The media items and forms a draft names, from the owner's own (one not held is unknown_reference). */
async function lookupsFor(
  ctx: BuilderOperationContext,
  ownerAgentId: string,
  document: DraftDocument,
): Promise<{ media: Map<string, RenderMedia>; forms: Map<string, RenderForm> }> {
  const refs = draftReferences(document);
  const read = ctx.services.builder.read;
  const media = new Map<string, RenderMedia>();
  const forms = new Map<string, RenderForm>();
  if (refs.mediaIds.length > 0) {
    const items = await read.renderMedia(ownerAgentId, refs.mediaIds);
    for (const item of items) media.set(item.mediaId, item);
    const missing = refs.mediaIds.find((id) => !media.has(id));
    if (missing) throw unknownReference('media item', missing);
  }
  if (refs.formIds.length > 0) {
    for (const [formId, form] of await formsForRender(read, ownerAgentId, refs.formIds))
      forms.set(formId, form);
    const missing = refs.formIds.find((id) => !forms.has(id));
    if (missing) throw unknownReference('form', missing);
  }
  return { media, forms };
}

/** Renders the site's current draft with its current settings. Writes nothing. */
export async function renderDraft(ctx: BuilderOperationContext, site: SiteView): Promise<RenderedDraft> {
  const draft = await ctx.services.builder.read.draft(site.siteId);
  if (!draft) throw new Error(`site ${site.siteId} has no draft (every site is created with one)`);
  const lookups = await lookupsFor(ctx, site.ownerAgentId, draft.document);
  // The settings' pictures: one deleted since is left out rather than stopping the publish.
  const pictureIds = [site.socialImageId, site.faviconId].filter((id): id is string => id !== null);
  const pictures = new Map(
    pictureIds.length
      ? (await ctx.services.builder.read.renderMedia(site.ownerAgentId, pictureIds)).map((m) => [
          m.mediaId,
          m,
        ])
      : [],
  );
  const files = renderSite({
    document: draft.document,
    site: {
      title: site.title,
      theme: site.theme,
      description: site.description,
      language: site.language,
      socialImage: site.socialImageId ? pictures.get(site.socialImageId) : undefined,
      favicon: site.faviconId ? pictures.get(site.faviconId) : undefined,
    },
    ...lookups,
  });
  const manifest = manifestOf(files);
  const hash = manifestHash(manifest);
  return {
    siteId: site.siteId,
    versionId: versionIdOf(ctx.services.ids, site.siteId, hash),
    draftRevision: draft.revision,
    document: draft.document,
    files,
    manifest,
    manifestHash: hash,
  };
}

/** Files written at once: enough to overlap the fsyncs, few enough not to crowd the disk. */
const STORE_CONCURRENCY = 8;

/**
 * Stores the files the renderer made (each once per hash) and checks that the media the version shows
 * are in the store, before any event names them: a version in the log always has all its bytes.
 */
export async function storeFiles(blobs: BlobStore, files: readonly RenderedFile[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      if (file.bytes) {
        const stored = await blobs.put(file.bytes);
        if (stored.sha256 !== file.sha256) throw new Error(`stored ${file.path} under another hash`);
      } else if (!(await blobs.has(file.sha256))) {
        throw new DomainError('builder.unknown_reference', 'invalid', 'a media item’s file is missing', {
          path: file.path,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STORE_CONCURRENCY, files.length) }, worker));
}

/** How often a command on a site stream is decided again after losing the append to a concurrent one. */
const CONFLICT_RETRIES = 3;

/**
 * Commits what `decide` makes of the site stream, deciding again on the fresh state when a concurrent
 * command on the same site won the append: the second of two identical publishes then sees the first's
 * version and pointer and decides nothing.
 */
export async function commitOnSite<T extends { events: NewEvent[] }>(
  ctx: BuilderOperationContext,
  siteId: string,
  decide: (site: SiteState) => T,
): Promise<{ decision: T; commit: CommitResult }> {
  const stream = siteStream(siteId);
  let decision: T | undefined;
  const commit = await ctx.commit(
    [stream],
    (states) => {
      decision = decide(states.get(stream) as SiteState);
      return decision.events;
    },
    { retries: CONFLICT_RETRIES },
  );
  return { decision: decision!, commit };
}
