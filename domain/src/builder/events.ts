// The site builder's core events: sites, drafts, versions and the publication pointer. Drafts and
// candidate versions are private; what is published, rolled back or suspended is public and federable,
// carrying the signed manifest so a peer can check the files it fetches.
// Streams: `site-<siteId>` (settings, versions, publication, suspension) and `draft-<siteId>`
// (the draft; its stream version is the draft revision).
import { z } from 'zod';
import { defineEvent, type EventDefinition } from '../shared/define-event.js';
import { addressEvents } from './address-events.js';
import { builderDomainEvents } from './domain-binding.js';
import { draftDocumentSchema } from './draft-document.js';
import { formEvents } from './form-events.js';
import { builderMediaEvents } from './media-events.js';

export const SITE_THEMES = ['classic', 'modern', 'dark'] as const;
export type SiteTheme = (typeof SITE_THEMES)[number];

/** One served file of a version: its URL path on the site, the SHA-256 of its bytes, type and length. */
export const manifestEntrySchema = z.strictObject({
  path: z.string().regex(/^\/[A-Za-z0-9._\-/]*$/),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  contentType: z.string().max(100),
  length: z.number().int().nonnegative(),
});
export type ManifestEntry = z.infer<typeof manifestEntrySchema>;
/** Sorted by path, paths unique. Its hash (services: SHA-256 of the RFC 8785 text) is the manifest hash. */
export const manifestSchema = z.array(manifestEntrySchema).max(5000);
/** A publish note's length limit, in characters. */
export const PUBLISH_NOTE_MAX = 280;
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

const siteSettings = {
  title: z.string().optional(),
  theme: z.enum(SITE_THEMES).optional(),
  description: z.string().optional(),
  language: z.string().optional(),
  /** A media item of the owner's shown when a page is shared (og:image); null: none. */
  socialImageId: z.string().nullable().optional(),
  /** A media item of the owner's as the browser tab's icon; null: none. */
  faviconId: z.string().nullable().optional(),
};

export const siteCreated = defineEvent({
  type: 'site.created',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    siteId: z.string(),
    ownerAgentId: z.string(),
    title: z.string(),
    /** The owner's default site: created on demand, listed first, one per owner. */
    isDefault: z.boolean(),
  }),
});
export const siteSettingsUpdated = defineEvent({
  type: 'site.settings_updated',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject(siteSettings),
});
export const siteDraftSaved = defineEvent({
  type: 'site.draft_saved',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    siteId: z.string(),
    document: draftDocumentSchema,
    /**
     * Set on an undo or redo (draft-history.ts): the step taken, and the revisions holding the states
     * before and after this one. An ordinary save has none: the state before it is the revision before.
     */
    step: z.enum(['undo', 'redo']).optional(),
    undoTo: z.number().int().positive().nullable().optional(),
    redoTo: z.number().int().positive().nullable().optional(),
  }),
});
/** A rendered draft: a candidate version (preview) or the version a publish moves the pointer to. */
export const siteVersionCreated = defineEvent({
  type: 'site.version_created',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({
    versionId: z.string(),
    /** The draft revision rendered (the draft stream's version). */
    draftRevision: z.number().int().nonnegative(),
    manifestHash: sha256Hex,
    manifest: manifestSchema,
  }),
});
const publication = {
  siteId: z.string(),
  ownerAgentId: z.string(),
  versionId: z.string(),
  manifestHash: sha256Hex,
  manifest: manifestSchema,
};
export const sitePublished = defineEvent({
  type: 'site.published',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ ...publication, title: z.string() }),
});
export const siteRolledBack = defineEvent({
  type: 'site.rolled_back',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ ...publication, fromVersionId: z.string() }),
});
/**
 * The note the publisher gave a publish ("fixed the opening hours"), beside its `site.published`. Private:
 * it is the owner's word for their own history, not part of what peers see.
 */
export const sitePublishNoted = defineEvent({
  type: 'site.publish_noted',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ versionId: z.string(), note: z.string().max(PUBLISH_NOTE_MAX) }),
});
/**
 * A published version's content put back into the draft (svc.builder.restore_version), beside the
 * `site.draft_saved` that holds it on the draft stream: the site's history says when a person went back
 * in the draft, which a plain save cannot tell. `draftRevision` is the revision that save made. Private,
 * like the draft.
 */
export const siteVersionRestored = defineEvent({
  type: 'site.version_restored',
  version: 1,
  federable: false,
  public: false,
  data: z.strictObject({ versionId: z.string(), draftRevision: z.number().int().positive() }),
});
export const siteSuspended = defineEvent({
  type: 'site.suspended',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ siteId: z.string(), reason: z.string() }),
});
export const siteUnsuspended = defineEvent({
  type: 'site.unsuspended',
  version: 1,
  federable: true,
  public: true,
  data: z.strictObject({ siteId: z.string() }),
});

export const builderEvents = [
  siteCreated,
  siteSettingsUpdated,
  siteDraftSaved,
  siteVersionCreated,
  sitePublished,
  siteRolledBack,
  sitePublishNoted,
  siteVersionRestored,
  siteSuspended,
  siteUnsuspended,
  ...addressEvents,
  ...formEvents,
  ...builderDomainEvents,
  ...builderMediaEvents,
] as const satisfies readonly EventDefinition[];

/** The data of one of this area's events, by type. */
export type BuilderEventData<T extends (typeof builderEvents)[number]['type']> = z.infer<
  Extract<(typeof builderEvents)[number], { type: T }>['data']
>;
