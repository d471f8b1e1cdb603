// What save_draft checks beyond the draft schema (which already refuses unknown blocks, links that are
// not http(s), mailto or a site path, and counts over DRAFT_LIMITS): the stored size, content a site may
// not hold, and the media and forms the draft names.
import {
  DRAFT_LIMITS,
  draftReferences,
  invalid,
  isLinkIssue,
  requireDraftWithinBytes,
  type DomainError,
  type DraftDocument,
} from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import { formReferences } from './form-views.js';
import { markdownProblem } from './markdown.js';

/** The draft's size as stored: its JSON text, in UTF-8 bytes (builder.draft_too_large over the limit). */
export function requireDraftSize(document: DraftDocument): void {
  requireDraftWithinBytes(Buffer.byteLength(JSON.stringify(document)));
}

/** How much of a refused link the refusal repeats. */
const LINK_VALUE_CHARS = 200;

/**
 * save_draft's refusal when every issue of its schema is a link that stays unsafe once repaired
 * (linkSchema: a bare email address is a mailto: link, a bare www. address an https one):
 * builder.link_invalid with each link's place in the document and the value as given, so a page can say
 * "Line 2: ‘…’ is not a web address or email address". Any other issue keeps input.invalid.
 */
export function linkRefusal(
  issues: readonly { code: string; path: readonly PropertyKey[]; params?: unknown }[],
  input: unknown,
): DomainError | undefined {
  const inDocument = (i: (typeof issues)[number]) => i.path[0] === 'document' && isLinkIssue(i);
  if (issues.length === 0 || !issues.every(inDocument)) return undefined;
  const links = issues.slice(0, DRAFT_LIMITS.listItems).map((i) => {
    let value: unknown = input;
    for (const key of i.path)
      value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    return {
      path: i.path.slice(1).map(String).join('.'),
      value: typeof value === 'string' ? value.trim().slice(0, LINK_VALUE_CHARS) : '',
    };
  });
  const first = links[0]!;
  return invalid(
    'builder.link_invalid',
    `${first.path}: not a web address (http or https), an email address or a /path of this site`,
    { path: first.path, value: first.value, links },
  );
}

/** Members that hold an identifier, a URL or a choice, which the schema constrains already. */
const NOT_TEXT = new Set(['type', 'id', 'mediaId', 'formId', 'url', 'link', 'path', 'style']);
/** Something a browser would read as the start of a tag, a comment or a declaration. */
const MARKUP = /<[A-Za-z!/?]/;

/**
 * Refuses (builder.unsafe_content, naming the field) Markdown with raw HTML or a link that is not safe,
 * and plain text holding markup. Plain text is escaped when rendered, so markup there would only show
 * as text; it is refused anyway, so a draft never holds what reads as a script or an event handler.
 */
export function requireSafeContent(document: DraftDocument): void {
  const visit = (value: unknown, path: (string | number)[]): void => {
    if (typeof value === 'string') {
      const key = path[path.length - 1];
      if (key === 'markdown') {
        const problem = markdownProblem(value);
        if (problem)
          throw invalid('builder.unsafe_content', 'the Markdown holds raw HTML or an unsafe link', {
            path: path.join('.'),
            ...problem,
          });
      } else if (!NOT_TEXT.has(String(key)) && MARKUP.test(value))
        throw invalid('builder.unsafe_content', 'plain text cannot hold markup', {
          path: path.join('.'),
          reason: 'markup',
        });
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
  };
  visit(document, []);
}

/**
 * Who holds the things a draft names, by kind: each returns the ids among `ids` the owner holds. The
 * media and forms parts of the builder add theirs to this list (reading their read models); until a kind
 * has a resolver its ids are not checked at save, and the renderer refuses what it cannot resolve.
 */
export interface ReferenceResolver {
  kind: 'media' | 'form';
  held(ctx: BuilderOperationContext, ownerAgentId: string, ids: readonly string[]): Promise<Set<string>>;
}
export const REFERENCE_RESOLVERS: readonly ReferenceResolver[] = [
  // The owner's live media items (rm_builder_media); a deleted one is no longer held.
  {
    kind: 'media',
    held: async (ctx, ownerAgentId, ids) =>
      new Set(await ctx.services.builder.read.mediaHeld(ownerAgentId, ids)),
  },
  formReferences,
];

/** builder.unknown_reference when the draft names a media item or form its owner does not hold. */
export async function requireKnownReferences(
  ctx: BuilderOperationContext,
  document: DraftDocument,
): Promise<void> {
  const refs = draftReferences(document);
  for (const resolver of REFERENCE_RESOLVERS) {
    const ids = resolver.kind === 'media' ? refs.mediaIds : refs.formIds;
    if (ids.length === 0) continue;
    const held = await resolver.held(ctx, ctx.actor.agentId, ids);
    const unknown = ids.filter((id) => !held.has(id));
    if (unknown.length > 0)
      throw invalid('builder.unknown_reference', `the draft names ${resolver.kind} you do not hold`, {
        kind: resolver.kind,
        ids: unknown.slice(0, DRAFT_LIMITS.listItems),
      });
  }
}
