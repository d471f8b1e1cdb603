// The builder's shared input fields and answers, as the operations, the REST routes and the OpenAPI
// document use them.
import { draftDocumentSchema, SITE_THEMES, suspensionReasonSchema, uuidSchema } from '@tributary/domain';
import { z } from 'zod';
import { targetAgentId } from '../shared/schemas.js';

export const siteIdInput = uuidSchema.optional().describe("the site; defaults to the owner's default site");

export const siteOutput = z.object({
  siteId: z.string(),
  ownerAgentId: z.string(),
  title: z.string(),
  isDefault: z.boolean(),
  theme: z.enum(SITE_THEMES),
  description: z.string(),
  language: z.string(),
  socialImageId: z.string().nullable().describe('the media item shown when a page is shared (og:image)'),
  faviconId: z.string().nullable().describe('the media item shown as the browser tab’s icon'),
  draftRevision: z.number().int(),
  publishedVersionId: z.string().nullable(),
  publishedAt: z.string().nullable(),
  suspendedReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** A published version as read_site lists it (previews are not listed). */
export const versionOutput = z.object({
  versionId: z.string(),
  manifestHash: z.string(),
  draftRevision: z.number().int(),
  createdAt: z.string(),
  /** When it was first published. */
  publishedAt: z.string(),
  /** The agent who first published it, and that agent's name (null when no longer known). */
  publishedBy: z.string().nullable(),
  publishedByName: z.string().nullable(),
  /** The note given when it was published, if any. */
  note: z.string().nullable(),
});

export const draftOutput = z.object({
  siteId: z.string(),
  revision: z.number().int(),
  document: draftDocumentSchema,
  updatedAt: z.string(),
  /** Whether undo_draft and redo_draft have somewhere to go from this revision. */
  canUndo: z.boolean(),
  canRedo: z.boolean(),
});

/** Version list paging. */
export const VERSIONS_DEFAULT_LIMIT = 20;
export const VERSIONS_MAX_LIMIT = 100;

/** A site's published versions a page at a time: svc.builder.list_versions and read_site take the same input. */
export const versionsPageInput = z.strictObject({
  targetAgentId,
  siteId: siteIdInput,
  limit: z.coerce.number().int().min(1).max(VERSIONS_MAX_LIMIT).default(VERSIONS_DEFAULT_LIMIT),
  before: z.string().max(100).optional().describe('the versionId the previous page ended with'),
});

/**
 * A suspension names a site of any owner: `siteId`, or `targetAgentId` for that owner's default site
 * (both: the site must be that owner's). At least one of them.
 */
const siteOfAnyOwner = {
  targetAgentId: uuidSchema.optional().describe("the site's owner"),
  siteId: uuidSchema.optional().describe("the site; defaults to the owner's default site"),
};
const namesASite: [
  (v: { targetAgentId?: string | undefined; siteId?: string | undefined }) => boolean,
  { message: string; path: string[] },
] = [
  (v) => v.siteId !== undefined || v.targetAgentId !== undefined,
  { message: "name the site: siteId, or targetAgentId for its owner's default site", path: ['siteId'] },
];
export const suspendInput = z
  .strictObject({
    ...siteOfAnyOwner,
    reason: suspensionReasonSchema.describe('why: shown to the owner and on the 451 page'),
  })
  .refine(...namesASite);
export const unsuspendInput = z.strictObject(siteOfAnyOwner).refine(...namesASite);

export const suspensionOutput = z.object({
  siteId: z.string(),
  ownerAgentId: z.string(),
  suspended: z.boolean(),
  reason: z.string().nullable(),
});
