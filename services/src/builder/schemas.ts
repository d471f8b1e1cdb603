// The builder's shared input fields and answers, as the operations, the REST routes and the OpenAPI
// document use them.
import { draftDocumentSchema, SITE_THEMES, uuidSchema } from '@tributary/domain';
import { z } from 'zod';

export const siteIdInput = uuidSchema.optional().describe("the site; defaults to the owner's default site");

export const siteOutput = z.object({
  siteId: z.string(),
  ownerAgentId: z.string(),
  title: z.string(),
  isDefault: z.boolean(),
  theme: z.enum(SITE_THEMES),
  description: z.string(),
  language: z.string(),
  draftRevision: z.number().int(),
  publishedVersionId: z.string().nullable(),
  publishedAt: z.string().nullable(),
  suspendedReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const versionOutput = z.object({
  versionId: z.string(),
  manifestHash: z.string(),
  draftRevision: z.number().int(),
  createdAt: z.string(),
});

export const draftOutput = z.object({
  siteId: z.string(),
  revision: z.number().int(),
  document: draftDocumentSchema,
  updatedAt: z.string(),
});

/** Version list paging. */
export const VERSIONS_DEFAULT_LIMIT = 20;
export const VERSIONS_MAX_LIMIT = 100;
