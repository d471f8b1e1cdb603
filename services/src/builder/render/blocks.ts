// One block of a page as HTML. Every element and attribute is written here; draft text only ever lands
// escaped, links only after isSafeLink, media and forms only by the ids the lookups resolve.
import { DomainError, isSafeLink, type DraftBlock, type LeafBlock } from '@tributary/domain';
import { linkAttributes, renderMarkdown } from '../markdown.js';
import { escapeHtml, fileHref } from './html.js';
import type { RenderForm, RenderFormField, RenderMedia } from './render-input.js';

export interface BlockPlace {
  pagePath: string;
  media: ReadonlyMap<string, RenderMedia>;
  forms: ReadonlyMap<string, RenderForm>;
  /** Element ids already used on the page (block ids become anchors; a repeated one is dropped). */
  ids: Set<string>;
  /** Counter for the page's form-control ids. */
  formCount: { n: number };
}

/** What a media type is stored as under `/_media/`. */
const MEDIA_EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/avif': 'avif',
  'image/svg+xml': 'svg',
};

/** The path a media item is served at in every version that uses it. */
export function mediaFilePath(media: RenderMedia): string {
  const ext = MEDIA_EXTENSIONS[media.contentType];
  if (!ext) throw new Error(`no file extension for media type ${media.contentType}`);
  return `/_media/${media.sha256}.${ext}`;
}

export const isRenderableMediaType = (contentType: string): boolean => contentType in MEDIA_EXTENSIONS;

/** The form submission path on the site's origin; the forms part answers it. */
export const formActionPath = (formId: string) => `/_forms/${formId}`;

/** A block's own id as the element id, when it is one the page has not used yet. */
function idAttribute(id: string | undefined, place: BlockPlace): string {
  if (!id || id === 'main' || place.ids.has(id)) return '';
  place.ids.add(id);
  return ` id="${escapeHtml(id)}"`;
}

const mediaOf = (mediaId: string, place: BlockPlace): RenderMedia => {
  const media = place.media.get(mediaId);
  if (!media || !isRenderableMediaType(media.contentType))
    throw new DomainError(
      'builder.unknown_reference',
      'invalid',
      'the draft names a media item you do not hold',
      {
        mediaId,
      },
    );
  return media;
};

function imageTag(mediaId: string, alt: string, place: BlockPlace): string {
  const media = mediaOf(mediaId, place);
  const size =
    media.width && media.height && Number.isSafeInteger(media.width) && Number.isSafeInteger(media.height)
      ? ` width="${media.width}" height="${media.height}"`
      : '';
  const src = fileHref(place.pagePath, mediaFilePath(media));
  return `<img src="${escapeHtml(src)}" alt="${escapeHtml(alt)}"${size} loading="lazy" decoding="async">`;
}

function figure(
  item: { mediaId: string; alt: string; caption?: string | undefined },
  place: BlockPlace,
  link?: string,
  idAttr = '',
): string {
  let img = imageTag(item.mediaId, item.alt, place);
  if (link && isSafeLink(link)) img = `<a ${linkAttributes(link, place)}>${img}</a>`;
  const caption = item.caption ? `<figcaption>${escapeHtml(item.caption)}</figcaption>` : '';
  return `<figure${idAttr}>${img}${caption}</figure>`;
}

/**
 * A link with a text label. Every URL of a draft passed isSafeLink when it was saved; it is checked
 * again here, so a document that reached the renderer some other way still shows only text.
 */
export function link(
  label: string,
  url: string,
  place: { pagePath: string },
  className?: string,
  extra = '',
): string {
  const cls = className ? ` class="${className}"` : '';
  if (!isSafeLink(url)) return `<span${cls}>${escapeHtml(label)}</span>`;
  return `<a${cls} ${linkAttributes(url, place)}${extra}>${escapeHtml(label)}</a>`;
}

const INPUT_TYPES = new Set(['text', 'email', 'url', 'tel', 'number', 'date']);

/**
 * What a form shown again carries: the visitor's values and, per field, what is wrong (a form answer
 * page after a refused submission, so nothing is typed twice). Absent on published pages.
 */
export interface FormFill {
  values: Readonly<Record<string, string | readonly string[]>>;
  /** Field name → the problem in words. */
  errors: ReadonlyMap<string, string>;
}

function formField(field: RenderFormField, controlId: string, fill?: FormFill): string {
  const name = escapeHtml(field.name);
  const required = field.required ? ' required' : '';
  const marker = field.required ? ' <span class="required" aria-hidden="true">*</span>' : '';
  const maxLength =
    field.maxLength && Number.isSafeInteger(field.maxLength) ? ` maxlength="${field.maxLength}"` : '';
  const help = field.help ? `<small id="${controlId}-help">${escapeHtml(field.help)}</small>` : '';
  const problem = fill?.errors.get(field.name);
  const error = problem
    ? `<small class="field-error" id="${controlId}-error">${escapeHtml(problem)}</small>`
    : '';
  const describedBy = [field.help && `${controlId}-help`, problem && `${controlId}-error`].filter(Boolean);
  const described =
    (describedBy.length ? ` aria-describedby="${describedBy.join(' ')}"` : '') +
    (problem ? ' aria-invalid="true"' : '');
  const given = fill?.values[field.name];
  const value = typeof given === 'string' ? given : Array.isArray(given) ? String(given[0] ?? '') : '';
  const valueAttr = fill && value !== '' ? ` value="${escapeHtml(value)}"` : '';
  const label = `<label for="${controlId}">${escapeHtml(field.label)}${marker}</label>`;
  switch (field.type) {
    case 'textarea':
      return `<div class="form-field">${label}<textarea id="${controlId}" name="${name}"${maxLength}${required}${described}>${fill ? escapeHtml(value) : ''}</textarea>${help}${error}</div>`;
    case 'select': {
      const options = (field.options ?? [])
        .map(
          (o) =>
            `<option value="${escapeHtml(o)}"${fill && o === value ? ' selected' : ''}>${escapeHtml(o)}</option>`,
        )
        .join('');
      return `<div class="form-field">${label}<select id="${controlId}" name="${name}"${required}${described}><option value="">—</option>${options}</select>${help}${error}</div>`;
    }
    case 'checkbox': {
      const checked = fill && value !== '' ? ' checked' : '';
      return `<div class="form-field form-check"><label for="${controlId}"><input type="checkbox" id="${controlId}" name="${name}" value="yes"${checked}${required}${described}> ${escapeHtml(field.label)}${marker}</label>${help}${error}</div>`;
    }
    default: {
      const type = INPUT_TYPES.has(field.type) ? field.type : 'text';
      const autocomplete = type === 'email' ? ' autocomplete="email"' : '';
      return `<div class="form-field">${label}<input type="${type}" id="${controlId}" name="${name}"${valueAttr}${maxLength}${autocomplete}${required}${described}>${help}${error}</div>`;
    }
  }
}

/** A form as HTML posting to `action`; `fill` shows it again with the visitor's values and problems. */
export function formHtml(
  form: RenderForm,
  o: { action: string; prefix: string; idAttr?: string; fill?: FormFill },
): string {
  const { prefix } = o;
  const title = form.title ? `<h2 id="${prefix}-title">${escapeHtml(form.title)}</h2>\n` : '';
  const labelled = form.title ? ` aria-labelledby="${prefix}-title"` : '';
  const fields = form.fields.map((f, i) => formField(f, `${prefix}-f${i + 1}`, o.fill)).join('\n');
  // The honeypot: hidden from people (off-screen, out of the tab order, hidden from assistive
  // technology), filled in by bots that fill every field; a submission with it set is refused.
  const honeypot = `<div class="hp" aria-hidden="true"><label for="${prefix}-website">Website</label><input type="text" id="${prefix}-website" name="website" tabindex="-1" autocomplete="off"></div>`;
  const submit = escapeHtml(form.submitLabel ?? 'Send');
  return `<form${o.idAttr ?? ''} class="site-form" method="post" action="${escapeHtml(o.action)}" accept-charset="utf-8"${labelled}>
${title}${fields}
${honeypot}
<button type="submit">${submit}</button>
</form>`;
}

function formBlock(formId: string, place: BlockPlace, idAttr: string): string {
  const form = place.forms.get(formId);
  if (!form)
    throw new DomainError('builder.unknown_reference', 'invalid', 'the draft names a form you do not hold', {
      formId,
    });
  const n = ++place.formCount.n;
  return formHtml(form, {
    action: fileHref(place.pagePath, formActionPath(form.formId)),
    prefix: `form${n}`,
    idAttr,
  });
}

export function renderBlock(block: DraftBlock | LeafBlock, place: BlockPlace): string {
  const id = idAttribute(block.id, place);
  switch (block.type) {
    case 'heading':
      return `<h${block.level}${id}>${escapeHtml(block.text)}</h${block.level}>`;
    case 'text':
      return `<div${id} class="text">\n${renderMarkdown(block.markdown, place)}</div>`;
    case 'image':
      return figure(block, place, block.link, id);
    case 'gallery':
      return `<div${id} class="gallery">\n${block.items.map((item) => figure(item, place)).join('\n')}\n</div>`;
    case 'links':
      return `<ul${id} class="link-list">\n${block.items
        .map((item) => `<li>${link(item.label, item.url, place)}</li>`)
        .join('\n')}\n</ul>`;
    case 'button':
      return `<p${id} class="button-row">${link(block.label, block.url, place, `button button-${block.style === 'secondary' ? 'secondary' : 'primary'}`)}</p>`;
    case 'columns':
      return `<div${id} class="columns columns-${block.columns.length}">\n${block.columns
        .map((c) => `<div class="column">\n${c.blocks.map((b) => renderBlock(b, place)).join('\n')}\n</div>`)
        .join('\n')}\n</div>`;
    case 'form':
      return formBlock(block.formId, place, id);
    case 'divider':
      return `<hr${id}>`;
  }
}
