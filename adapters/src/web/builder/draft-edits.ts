// The builder page's edits of a draft: one form post is one edit (add, change, move or delete a page or
// a block, the navigation, the footer), applied to the draft as read and saved over the revision the
// form was shown with, so an edit made on a draft someone else has saved since is refused by
// save_draft (builder.draft_stale) and nothing is lost silently. The result is not validated here:
// save_draft checks it like any other draft, and its refusal is what the page shows.
import { invalid, type DraftBlock, type DraftDocument, type LeafBlock } from '@tributary/domain';

/** A urlencoded form body: each field a string, or a list when repeated. */
export type FormBody = Record<string, string | string[] | undefined>;

export const str = (body: FormBody, name: string): string => {
  const v = body[name];
  return (Array.isArray(v) ? v[0] : v) ?? '';
};
const opt = (body: FormBody, name: string): string | undefined => str(body, name).trim() || undefined;

const index = (body: FormBody, name: string, length: number): number => {
  const n = Number(str(body, name));
  if (!Number.isInteger(n) || n < 0 || n >= length)
    throw invalid('input.invalid', `${name} is not on this draft any more; reload the page`);
  return n;
};

/** `label | url` lines, as the page's text areas take lists of links. */
export function linkLines(text: string): { label: string; url: string }[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map((l) => {
      const bar = l.lastIndexOf('|');
      return bar < 0 ? { label: l, url: l } : { label: l.slice(0, bar).trim(), url: l.slice(bar + 1).trim() };
    });
}
export const linesOf = (items: readonly { label: string; url: string }[]) =>
  items.map((i) => `${i.label} | ${i.url}`).join('\n');

/** The block kinds a page offers to add, in the order shown. */
export const ADDABLE_BLOCKS = [
  'heading',
  'text',
  'image',
  'gallery',
  'button',
  'links',
  'form',
  'divider',
] as const;
export type AddableBlock = (typeof ADDABLE_BLOCKS)[number];

/** A block of `type` from the form's fields (the same fields the block's own edit form has). */
export function blockFrom(type: string, body: FormBody, keepId?: string): DraftBlock {
  const id = keepId ? { id: keepId } : {};
  switch (type) {
    case 'heading': {
      const level = Number(str(body, 'level') || 2);
      return {
        type,
        ...id,
        level: ([1, 2, 3, 4].includes(level) ? level : 2) as 1 | 2 | 3 | 4,
        text: str(body, 'text'),
      };
    }
    case 'text':
      return { type, ...id, markdown: str(body, 'markdown').replace(/\r\n/g, '\n') };
    case 'image': {
      const caption = opt(body, 'caption');
      const link = opt(body, 'link');
      return {
        type,
        ...id,
        mediaId: str(body, 'mediaId'),
        alt: str(body, 'alt'),
        ...(caption && { caption }),
        ...(link && { link }),
      };
    }
    case 'gallery': {
      const chosen = body.mediaIds;
      const ids = (Array.isArray(chosen) ? chosen : chosen ? [chosen] : []).filter((v) => v !== '');
      if (ids.length === 0) throw invalid('input.invalid', 'pick at least one picture for the gallery');
      return { type, ...id, items: ids.map((mediaId) => ({ mediaId, alt: str(body, `alt-${mediaId}`) })) };
    }
    case 'button':
      return {
        type,
        ...id,
        label: str(body, 'label'),
        url: str(body, 'url'),
        style: str(body, 'style') === 'secondary' ? 'secondary' : 'primary',
      };
    case 'links':
      return { type, ...id, items: linkLines(str(body, 'items')) };
    case 'form':
      return { type, ...id, formId: str(body, 'formId') };
    case 'divider':
      return { type, ...id };
    default:
      throw invalid('input.invalid', `a block cannot be of type ${type} here`);
  }
}

/** Applies the edit a form post names (`edit`) to a copy of the draft. */
export function applyDraftEdit(draft: DraftDocument, body: FormBody): DraftDocument {
  const doc = structuredClone(draft);
  const edit = str(body, 'edit');
  const page = () => doc.pages[index(body, 'page', doc.pages.length)]!;
  const block = (p: { blocks: (DraftBlock | LeafBlock)[] }) => index(body, 'block', p.blocks.length);
  switch (edit) {
    case 'page.add': {
      const path = str(body, 'path').trim().toLowerCase();
      const title = str(body, 'title');
      doc.pages.push({ path: path.startsWith('/') ? path : `/${path}`, title, blocks: [] });
      if (str(body, 'nav') === 'on') doc.navigation.items.push({ label: title, url: doc.pages.at(-1)!.path });
      return doc;
    }
    case 'page.update': {
      const p = page();
      p.title = str(body, 'title');
      const description = opt(body, 'description');
      if (description) p.description = description;
      else delete p.description;
      return doc;
    }
    case 'page.delete': {
      const i = index(body, 'page', doc.pages.length);
      const gone = doc.pages[i]!;
      if (gone.path === '/') throw invalid('input.invalid', 'the home page cannot be deleted');
      doc.pages.splice(i, 1);
      doc.navigation.items = doc.navigation.items.filter((n) => n.url !== gone.path);
      return doc;
    }
    case 'block.add': {
      const p = page();
      p.blocks.push(blockFrom(str(body, 'type'), body));
      return doc;
    }
    case 'block.update': {
      const p = page();
      const b = block(p);
      const current = p.blocks[b]!;
      p.blocks[b] = blockFrom(current.type, body, current.id);
      return doc;
    }
    case 'block.move': {
      const p = page();
      const b = block(p);
      const to = str(body, 'direction') === 'up' ? b - 1 : b + 1;
      if (to < 0 || to >= p.blocks.length) return doc;
      const [moved] = p.blocks.splice(b, 1);
      p.blocks.splice(to, 0, moved!);
      return doc;
    }
    case 'block.delete': {
      const p = page();
      p.blocks.splice(block(p), 1);
      return doc;
    }
    case 'navigation.update':
      doc.navigation.items = linkLines(str(body, 'items'));
      return doc;
    case 'footer.update':
      doc.footer = {
        markdown: str(body, 'markdown').replace(/\r\n/g, '\n'),
        links: linkLines(str(body, 'links')),
      };
      return doc;
    default:
      throw invalid('input.invalid', 'unknown edit');
  }
}
