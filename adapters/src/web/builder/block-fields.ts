// The editor's blocks: their names, a one-line summary, a new block's defaults, and each block's fields.
import { type DraftBlock, type FormField, type LeafBlock } from '@tributary/domain';
import { field, selectField } from '../components.js';
import { html, raw, type Html } from '../html.js';
import { linesOf } from './draft-edits.js';
import type { MediaItem } from './builder-pieces.js';

export const BLOCK_NAMES: Record<string, string> = {
  heading: 'a heading',
  text: 'text',
  image: 'a picture',
  gallery: 'a gallery',
  button: 'a button',
  links: 'a list of links',
  form: 'a form',
  divider: 'a divider',
  columns: 'columns',
};
export const blockName = (b: DraftBlock | LeafBlock) =>
  ({
    heading: 'Heading',
    text: 'Text',
    image: 'Picture',
    gallery: 'Gallery',
    button: 'Button',
    links: 'Links',
    form: 'Form',
    divider: 'Divider',
    columns: 'Columns',
  })[b.type];

export interface BlockContext {
  media: MediaItem[];
  forms: { formId: string; name: string; fields: FormField[] }[];
  /** The URL of a library picture's thumbnail (GET /api/builder/media/thumbnail). */
  thumb: (mediaId: string, size?: number) => string;
  /** A form's own page (its answers and fields), acting-as kept. */
  formHref?: (formId: string) => string;
}

/** Where a block is: the page's `block`, or block `inner` of column `column` of the columns block at `block`. */
export interface Place {
  block: number;
  column?: number;
  inner?: number;
}
export const placeFields = (p: Place): Record<string, number> =>
  p.column === undefined ? { block: p.block } : { block: p.block, column: p.column, inner: p.inner! };
/** A block's place in words, for screen readers' button names. */
export const placeName = (p: Place) =>
  p.column === undefined
    ? `block ${p.block + 1}`
    : `block ${p.inner! + 1} of column ${p.column + 1} in block ${p.block + 1}`;

/**
 * The picture picker: each picture of the library as a radio button with its thumbnail (a `<select>`
 * cannot show pictures), the one chosen first.
 */
function mediaPicker(c: BlockContext, chosen: string): Html {
  return html`<fieldset class="field media-picker">
    <legend>Picture</legend>
    <span class="hint">From your picture library.</span>
    <div class="thumbs">
      ${c.media.map(
        (m) =>
          html`<label class="thumb">
            <input
              type="radio"
              name="mediaId"
              value="${m.mediaId}"
              ${m.mediaId === chosen ? raw(' checked') : ''}
              required
            />
            <img src="${c.thumb(m.mediaId)}" alt="" width="96" height="96" loading="lazy" />
            <span class="small">${m.filename} <span class="muted">(${m.width}×${m.height})</span></span>
          </label>`,
      )}
    </div>
  </fieldset>`;
}

export function blockSummary(b: DraftBlock | LeafBlock, c: BlockContext): string {
  const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
  switch (b.type) {
    case 'heading':
      return cut(b.text);
    case 'text':
      return cut(b.markdown);
    case 'image':
      return c.media.find((m) => m.mediaId === b.mediaId)?.filename ?? b.alt;
    case 'gallery':
      return `${b.items.length} pictures`;
    case 'button':
      return `${b.label} → ${b.url}`;
    case 'links':
      return b.items.map((i) => i.label).join(', ');
    case 'form':
      return c.forms.find((f) => f.formId === b.formId)?.name ?? 'a form';
    case 'columns':
      return `${b.columns.length} columns`;
    default:
      return '';
  }
}

export function defaultBlock(type: string, c: BlockContext): DraftBlock {
  switch (type) {
    case 'heading':
      return { type, level: 2, text: '' };
    case 'text':
      return { type, markdown: '' };
    case 'image':
      return { type, mediaId: c.media[0]?.mediaId ?? '', alt: c.media[0]?.alt ?? '' };
    case 'gallery':
      return { type, items: [] as never };
    case 'button':
      return { type, label: '', url: '', style: 'primary' };
    case 'links':
      return { type, items: [] as never };
    case 'form':
      return { type, formId: c.forms[0]?.formId ?? '' };
    case 'columns':
      return { type, columns: [{ blocks: [] }, { blocks: [] }] };
    default:
      return { type: 'divider' };
  }
}

/** The fields of a block's form (the same for adding and editing). */
export function blockFields(b: DraftBlock | LeafBlock, c: BlockContext, key: string): Html {
  switch (b.type) {
    case 'heading':
      return html`${selectField({
        name: 'level',
        label: 'Level',
        value: String(b.level),
        options: [
          ['1', 'Page title (largest)'],
          ['2', 'Section'],
          ['3', 'Sub-section'],
          ['4', 'Small'],
        ],
      })}
      ${field({ name: 'text', label: 'Heading text', value: b.text, required: true, maxlength: 300 })}`;
    case 'text':
      return field({
        name: 'markdown',
        label: 'Text',
        type: 'textarea',
        value: b.markdown,
        hint: 'Each line stays a line; a blank line starts a new paragraph. Markdown: **bold**, *italic*, [a link](https://…), - lists, > quotes. No HTML.',
        attrs: 'rows="6"',
      });
    case 'image':
      return html`${mediaPicker(c, b.mediaId)}
      ${field({ name: 'alt', label: 'Alt text (what the picture shows)', value: b.alt, required: true, maxlength: 300 })}
      ${field({ name: 'caption', label: 'Caption (optional)', value: b.caption ?? '', maxlength: 300 })}
      ${field({ name: 'link', label: 'Link (optional)', value: b.link ?? '', hint: 'A web address (https://…), an email address or /a-page' })}`;
    case 'gallery': {
      const chosen = new Map(b.items.map((i) => [i.mediaId, i]));
      // The gallery's own pictures first, in its order; then the rest of the library.
      const ordered = [
        ...b.items.flatMap((i) => c.media.filter((m) => m.mediaId === i.mediaId)),
        ...c.media.filter((m) => !chosen.has(m.mediaId)),
      ];
      return html`<fieldset class="field">
        <legend>Pictures</legend>
        <span class="hint">Ticked pictures are shown, in this order.</span>
        ${ordered.map(
          (m) =>
            html`<div class="gallery-item">
              <label class="check thumb-check"
                ><input
                  type="checkbox"
                  name="mediaIds"
                  value="${m.mediaId}"
                  ${chosen.has(m.mediaId) ? raw(' checked') : ''}
                />
                <img src="${c.thumb(m.mediaId)}" alt="" width="64" height="64" loading="lazy" />
                <span>${m.filename}</span></label
              >
              ${field({ name: `alt-${m.mediaId}`, label: `Alt text for ${m.filename}`, value: chosen.get(m.mediaId)?.alt ?? m.alt ?? '', maxlength: 300 })}
              ${field({ name: `caption-${m.mediaId}`, label: `Caption for ${m.filename} (optional)`, value: chosen.get(m.mediaId)?.caption ?? '', maxlength: 300 })}
            </div>`,
        )}
      </fieldset>`;
    }
    case 'button':
      return html`${field({ name: 'label', label: 'Button text', value: b.label, required: true, maxlength: 300 })}
      ${field({ name: 'url', label: 'Link', value: b.url, required: true, hint: 'A web address (https://…), an email address or /a-page' })}
      ${selectField({
        name: 'style',
        label: 'Style',
        value: b.style,
        options: [
          ['primary', 'Primary'],
          ['secondary', 'Secondary'],
        ],
      })}`;
    case 'links':
      return field({
        name: 'items',
        label: 'Links',
        type: 'textarea',
        value: linesOf(b.items),
        hint: 'One a line: label | a web address (https://…), an email address or /a-page',
        required: true,
      });
    case 'form':
      return html`${selectField({
        name: 'formId',
        label: 'Form',
        value: b.formId,
        options: c.forms.map((f) => [f.formId, f.name] as const),
        hint: 'Visitors’ answers arrive on the form’s page.',
      })}
      ${b.formId ? html`<p class="small"><a data-field="form-page" href="${c.formHref?.(b.formId) ?? `/builder/forms/${b.formId}`}">See its answers and change its fields</a></p>` : ''}`;
    case 'divider':
      return html`<p class="small muted">A line between sections; nothing to set.</p>`;
    case 'columns':
      return html`${selectField({
        name: 'count',
        label: 'Number of columns',
        value: String(b.columns.length),
        options: [
          ['2', 'Two'],
          ['3', 'Three'],
          ['4', 'Four'],
        ],
        hint: 'Side by side on a wide screen, one under the other on a phone. Add blocks to each column once it is made.',
      })}`;
    default:
      return html`<p class="small muted">${key}</p>`;
  }
}
