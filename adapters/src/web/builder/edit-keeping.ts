// Nothing typed is lost when someone else saved the draft first (docs/web.md#builder-editing). Each
// editing form carries `base`: a short hash of the part of the draft it edits, as it was shown. A save
// over a stale revision whose part is still as shown (the other save changed something else) goes on top
// of the current revision; one whose part changed is refused as before (builder.draft_stale), and the
// page comes back with what was typed still in the form and the other change beside it.
import { createHash } from 'node:crypto';
import type { DraftBlock, DraftDocument, LeafBlock } from '@tributary/domain';
import { html, type Html } from '../html.js';
import { blockFrom, linesOf, str, type FormBody } from './draft-edits.js';

/** The edits whose form holds text someone types (and may lose): they carry a base and keep it. */
export const KEEPING_EDITS = ['block.update', 'page.update', 'navigation.update', 'footer.update'] as const;

const numberOf = (body: FormBody, name: string) =>
  str(body, name) === '' ? undefined : Number(str(body, name));

/** The part of the draft a form edits, by its place fields; undefined when it is not on the draft. */
function partOf(doc: DraftDocument, body: FormBody): unknown {
  const page = doc.pages[numberOf(body, 'page') ?? 0];
  switch (str(body, 'edit')) {
    case 'block.update': {
      const outer = page?.blocks[numberOf(body, 'block') ?? -1];
      const column = numberOf(body, 'column');
      if (column === undefined || outer?.type !== 'columns') return outer;
      return outer.columns[column]?.blocks[numberOf(body, 'inner') ?? -1];
    }
    case 'page.update':
      return page && { title: page.title, path: page.path, description: page.description ?? null };
    case 'navigation.update':
      return doc.navigation;
    case 'footer.update':
      return doc.footer;
    default:
      return undefined;
  }
}

/** The base a form carries: the hash of its part as shown ('' when the edit keeps none). */
export function editBase(doc: DraftDocument, fields: Record<string, string | number>): string {
  const body: FormBody = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  const part = partOf(doc, body);
  if (part === undefined) return '';
  return createHash('sha256').update(JSON.stringify(part)).digest('base64url').slice(0, 22);
}

/** Whether the form's part of the draft is still as the form was shown. */
export function partUnchanged(doc: DraftDocument, body: FormBody): boolean {
  const base = str(body, 'base');
  return base !== '' && editBase(doc, body as Record<string, string>) === base;
}

/** Whether a refused post is the one that edits this place, so its form shows what was typed. */
export function keptFor(
  kept: FormBody | undefined,
  edit: (typeof KEEPING_EDITS)[number],
  place: Record<string, number> = {},
): FormBody | undefined {
  if (!kept || str(kept, 'edit') !== edit) return undefined;
  for (const [k, v] of Object.entries(place)) if (str(kept, k) !== String(v)) return undefined;
  return kept;
}

/** A block as the person typed it (their refused post), or the block as saved when it cannot be made. */
export function typedBlock<B extends DraftBlock | LeafBlock>(b: B, kept: FormBody | undefined): B {
  if (!kept) return b;
  try {
    return blockFrom(b.type, kept, b.id) as B;
  } catch {
    return b;
  }
}

/** The text of a block as someone reads it, for showing the other change beside what was typed. */
function blockText(b: DraftBlock | LeafBlock): string {
  switch (b.type) {
    case 'heading':
      return b.text;
    case 'text':
      return b.markdown;
    case 'button':
      return `${b.label} → ${b.url}`;
    case 'links':
      return linesOf(b.items);
    case 'image':
      return [b.alt, b.caption, b.link].filter(Boolean).join('\n');
    case 'gallery':
      return b.items.map((i) => [i.alt, i.caption].filter(Boolean).join(' — ')).join('\n');
    default:
      return '';
  }
}

/**
 * The other change, beside what was typed: the part as saved now, and the two ways on ("Save" keeps
 * yours, on top of it: the form carries the current revision; "Take theirs" shows the draft as it is).
 */
export function conflictPanel(theirs: string, takeTheirs: string, saveLabel: string): Html {
  return html`<div
    class="conflict notice notice-warning"
    data-conflict
    role="group"
    aria-label="Changed by someone else"
  >
    <p>
      <strong>Someone else changed this while you were typing.</strong> What you typed is still in the form
      below; their version is here.
    </p>
    <pre class="conflict-theirs" data-field="theirs">${theirs || '(empty)'}</pre>
    <p class="small">
      <strong>${saveLabel}</strong> keeps yours (saved on top of theirs) —
      <a href="${takeTheirs}" data-take-theirs>Take theirs</a> (what you typed is dropped).
    </p>
  </div>`;
}

export const theirsOfBlock = (b: DraftBlock | LeafBlock) => blockText(b);
