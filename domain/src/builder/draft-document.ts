// The site draft: a structured document validated by a versioned schema (version 1). It holds no markup:
// text is plain or a Markdown subset rendered with raw HTML off, URLs are http(s), mailto or a path of
// the same site, so nothing a draft can hold renders a script, an event handler or a style of its own.
import { z } from 'zod';
import { isHttpUrl } from '../shared/http-url.js';

/** Limits of one draft, stated in docs/builder.md. */
export const DRAFT_LIMITS = {
  pages: 200,
  blocksPerPage: 200,
  /** Blocks inside one column of a columns block. */
  blocksPerColumn: 50,
  /** The draft's JSON, as stored. */
  bytes: 1024 * 1024,
  markdownChars: 20_000,
  textChars: 300,
  descriptionChars: 500,
  listItems: 50,
  navigationItems: 20,
  pathSegments: 4,
} as const;

export const DRAFT_SCHEMA_VERSION = 1 as const;

// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;
const plainText = (max: number = DRAFT_LIMITS.textChars) =>
  z.string().trim().max(max).regex(NO_CONTROLS, 'no control characters');

/** A page path: `/` or `/segment[/segment…]`, segments of a-z 0-9 and inner hyphens. */
export const PAGE_PATH =
  /^\/(?:[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\/[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*)?$/;
export const pagePathSchema = z
  .string()
  .max(256)
  .regex(PAGE_PATH, 'a path: / or /segment/…, segments of a-z 0-9 and inner hyphens')
  .refine((p) => p === '/' || p.split('/').length - 1 <= DRAFT_LIMITS.pathSegments, {
    message: `at most ${DRAFT_LIMITS.pathSegments} segments`,
  });

/**
 * Where a link may point: an absolute http(s) URL without credentials, a `mailto:` address, or a path
 * of this site (optionally with a #fragment). Never `javascript:`, `data:`, `vbscript:` or a
 * protocol-relative `//host`.
 */
// eslint-disable-next-line no-control-regex
const MAILTO_LINK = /^mailto:[^\s\u0000-\u001f\u007f<>"]+@[^\s\u0000-\u001f\u007f<>"]+$/i;
const SITE_LINK = /^\/(?!\/)[a-z0-9\-/]*(?:#[A-Za-z0-9\-_]{1,64})?$/;
export const isSafeLink = (value: string): boolean =>
  isHttpUrl(value) || MAILTO_LINK.test(value) || SITE_LINK.test(value);

// An address with nothing that could make it a URL of its own (no scheme, path or space).
const BARE_EMAIL = /^[^\s@<>"/:\\]+@[^\s@<>"/:\\.]+(?:\.[^\s@<>"/:\\.]+)+$/;
const BARE_WWW = /^www\.[^\s/?#@:\\]+\.[^\s/?#@:\\]+(?:[/?#]\S*)?$/i;

/**
 * A link as people type it, repaired where what they meant is plain (docs/builder.md#links): spaces
 * around it dropped, a bare email address (`ada@example.org`) made a `mailto:` link, a bare `www.`
 * address (`www.example.org/menu`) an `https://` one. Anything else is left as typed for isSafeLink to
 * judge. Pure and idempotent: a repaired link is left as it is.
 */
export function repairLink(typed: string): string {
  const s = typed.trim();
  if (BARE_EMAIL.test(s)) return `mailto:${s}`;
  if (BARE_WWW.test(s)) return `https://${s}`;
  return s;
}

/** The `params` of the issue a link refused by linkSchema raises, so a refusal can name the link. */
export const LINK_ISSUE = { refusal: 'link' } as const;
export const isLinkIssue = (issue: { code: string; params?: unknown }): boolean =>
  issue.code === 'custom' &&
  (issue.params as { refusal?: unknown } | undefined)?.refusal === LINK_ISSUE.refusal;

/** A link of a draft: repaired as typed (repairLink), then held to isSafeLink. */
export const linkSchema = z.string().overwrite(repairLink).max(2000).refine(isSafeLink, {
  message: 'not a web address (http or https), an email address or a /path of this site',
  params: LINK_ISSUE,
});

/** Media and forms are referenced by id; the renderer resolves them and refuses unknown ones. */
const entityId = z.string().regex(/^[0-9a-f-]{36}$/i, 'must be a UUID');
/** A block's own id, chosen by the editor, so edits and comments can point at a block. */
const blockId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,40}$/)
  .optional();

const headingBlock = z.strictObject({
  type: z.literal('heading'),
  id: blockId,
  level: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]).default(2),
  text: plainText(),
});
const textBlock = z.strictObject({
  type: z.literal('text'),
  id: blockId,
  /** A Markdown subset (paragraphs, emphasis, links, lists, quotes, code), raw HTML off. */
  markdown: z.string().max(DRAFT_LIMITS.markdownChars),
});
const imageItem = z.strictObject({
  mediaId: entityId,
  alt: plainText(),
  caption: plainText().optional(),
});
const imageBlock = z.strictObject({
  type: z.literal('image'),
  id: blockId,
  ...imageItem.shape,
  link: linkSchema.optional(),
});
const galleryBlock = z.strictObject({
  type: z.literal('gallery'),
  id: blockId,
  items: z.array(imageItem).min(1).max(DRAFT_LIMITS.listItems),
});
const linkItem = z.strictObject({ label: plainText(), url: linkSchema });
const linksBlock = z.strictObject({
  type: z.literal('links'),
  id: blockId,
  items: z.array(linkItem).min(1).max(DRAFT_LIMITS.listItems),
});
const buttonBlock = z.strictObject({
  type: z.literal('button'),
  id: blockId,
  label: plainText(),
  url: linkSchema,
  style: z.enum(['primary', 'secondary']).default('primary'),
});
const formBlock = z.strictObject({ type: z.literal('form'), id: blockId, formId: entityId });
const dividerBlock = z.strictObject({ type: z.literal('divider'), id: blockId });

/** Blocks that may sit inside a column (everything but columns: no nesting). */
export const leafBlockSchema = z.discriminatedUnion('type', [
  headingBlock,
  textBlock,
  imageBlock,
  galleryBlock,
  linksBlock,
  buttonBlock,
  formBlock,
  dividerBlock,
]);
const columnsBlock = z.strictObject({
  type: z.literal('columns'),
  id: blockId,
  columns: z
    .array(z.strictObject({ blocks: z.array(leafBlockSchema).max(DRAFT_LIMITS.blocksPerColumn) }))
    .min(2)
    .max(4),
});
export const blockSchema = z.discriminatedUnion('type', [
  headingBlock,
  textBlock,
  imageBlock,
  galleryBlock,
  linksBlock,
  buttonBlock,
  columnsBlock,
  formBlock,
  dividerBlock,
]);
export const BLOCK_TYPES = blockSchema.options.map((o) => o.shape.type.value);

export const pageSchema = z.strictObject({
  path: pagePathSchema,
  title: plainText().min(1),
  description: plainText(DRAFT_LIMITS.descriptionChars).optional(),
  blocks: z.array(blockSchema).max(DRAFT_LIMITS.blocksPerPage),
});

const navigationItem = z.strictObject({ label: plainText().min(1), url: linkSchema });

export const draftDocumentSchema = z
  .strictObject({
    schemaVersion: z.literal(DRAFT_SCHEMA_VERSION),
    pages: z.array(pageSchema).min(1).max(DRAFT_LIMITS.pages),
    navigation: z
      .strictObject({ items: z.array(navigationItem).max(DRAFT_LIMITS.navigationItems) })
      .default({ items: [] }),
    footer: z
      .strictObject({
        /** Markdown subset, as a text block. */
        markdown: z.string().max(2000).default(''),
        links: z.array(linkItem).max(DRAFT_LIMITS.navigationItems).default([]),
      })
      .default({ markdown: '', links: [] }),
  })
  .superRefine((doc, ctx) => {
    const seen = new Set<string>();
    doc.pages.forEach((page, i) => {
      if (seen.has(page.path))
        ctx.addIssue({
          code: 'custom',
          path: ['pages', i, 'path'],
          message: `duplicate page path ${page.path}`,
        });
      seen.add(page.path);
    });
    if (!seen.has('/'))
      ctx.addIssue({ code: 'custom', path: ['pages'], message: 'a site has a home page at /' });
  });

export type DraftDocument = z.infer<typeof draftDocumentSchema>;
export type DraftPage = DraftDocument['pages'][number];
export type DraftBlock = z.infer<typeof blockSchema>;
export type LeafBlock = z.infer<typeof leafBlockSchema>;

/** The draft a new site starts with: one home page with its title as a heading. */
export const starterDraft = (title: string): DraftDocument => ({
  schemaVersion: DRAFT_SCHEMA_VERSION,
  pages: [{ path: '/', title, blocks: [{ type: 'heading', level: 1, text: title }] }],
  navigation: { items: [] },
  footer: { markdown: '', links: [] },
});

/** Every media id and form id a draft references (the renderer resolves them; media in use can't go). */
export function draftReferences(doc: DraftDocument): { mediaIds: string[]; formIds: string[] } {
  const media = new Set<string>();
  const forms = new Set<string>();
  const visit = (b: DraftBlock | LeafBlock) => {
    if (b.type === 'image') media.add(b.mediaId);
    else if (b.type === 'gallery') b.items.forEach((it) => media.add(it.mediaId));
    else if (b.type === 'form') forms.add(b.formId);
    else if (b.type === 'columns') b.columns.forEach((c) => c.blocks.forEach(visit));
  };
  doc.pages.forEach((p) => p.blocks.forEach(visit));
  return { mediaIds: [...media].sort(), formIds: [...forms].sort() };
}
