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

/** The block kinds a column offers to add (every kind but columns: they do not nest), in the order shown. */
export const LEAF_BLOCKS = [
  'heading',
  'text',
  'image',
  'gallery',
  'button',
  'links',
  'form',
  'divider',
] as const;
/** The block kinds a page offers to add: every kind the draft schema has. */
export const ADDABLE_BLOCKS = [...LEAF_BLOCKS, 'columns'] as const;
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
      return {
        type,
        ...id,
        items: ids.map((mediaId) => {
          const caption = opt(body, `caption-${mediaId}`);
          return { mediaId, alt: str(body, `alt-${mediaId}`), ...(caption && { caption }) };
        }),
      };
    }
    case 'columns': {
      const n = Number(str(body, 'count') || 2);
      const count = [2, 3, 4].includes(n) ? n : 2;
      return { type, ...id, columns: Array.from({ length: count }, () => ({ blocks: [] })) };
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

type Columns = Extract<DraftBlock, { type: 'columns' }>;

/**
 * Where a block edit applies: the page's own blocks, or — when the form names a `column` — the blocks of
 * that column of the columns block at `block`, with the block itself at `inner`.
 */
function blockList(
  doc: DraftDocument,
  body: FormBody,
): { list: (DraftBlock | LeafBlock)[]; at: string; nested: Columns | null; column: number } {
  const p = doc.pages[index(body, 'page', doc.pages.length)]!;
  if (str(body, 'column') === '') return { list: p.blocks, at: 'block', nested: null, column: -1 };
  const outer = p.blocks[index(body, 'block', p.blocks.length)]!;
  if (outer.type !== 'columns') throw invalid('input.invalid', 'that block has no columns; reload the page');
  const column = index(body, 'column', outer.columns.length);
  return { list: outer.columns[column]!.blocks, at: 'inner', nested: outer, column };
}

/** Applies the edit a form post names (`edit`) to a copy of the draft. */
export function applyDraftEdit(draft: DraftDocument, body: FormBody): DraftDocument {
  const doc = structuredClone(draft);
  const edit = str(body, 'edit');
  const page = () => doc.pages[index(body, 'page', doc.pages.length)]!;
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
      // A new path: the navigation's links to the old one follow it.
      const path = str(body, 'path').trim().toLowerCase();
      if (path && p.path !== '/' && path !== p.path) {
        const to = path.startsWith('/') ? path : `/${path}`;
        for (const n of doc.navigation.items) if (n.url === p.path) n.url = to;
        p.path = to;
      }
      return doc;
    }
    case 'page.move': {
      const i = index(body, 'page', doc.pages.length);
      const to = str(body, 'direction') === 'up' ? i - 1 : i + 1;
      if (to < 0 || to >= doc.pages.length) return doc;
      const [moved] = doc.pages.splice(i, 1);
      doc.pages.splice(to, 0, moved!);
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
      const { list, nested } = blockList(doc, body);
      const type = str(body, 'type');
      if (nested && type === 'columns') throw invalid('input.invalid', 'columns cannot hold columns');
      list.push(blockFrom(type, body));
      return doc;
    }
    case 'block.update': {
      const { list, at } = blockList(doc, body);
      const b = index(body, at, list.length);
      const current = list[b]!;
      // A columns block's own form sets only its number of columns; its blocks are edited one by one.
      list[b] =
        current.type === 'columns' ? resized(current, body) : blockFrom(current.type, body, current.id);
      return doc;
    }
    case 'block.move': {
      const { list, at, nested, column } = blockList(doc, body);
      const b = index(body, at, list.length);
      const direction = str(body, 'direction');
      if (nested && (direction === 'left' || direction === 'right')) {
        // To the end of the column beside it.
        const to = column + (direction === 'left' ? -1 : 1);
        if (to < 0 || to >= nested.columns.length) return doc;
        const [moved] = list.splice(b, 1);
        nested.columns[to]!.blocks.push(moved as LeafBlock);
        return doc;
      }
      const to = direction === 'up' ? b - 1 : b + 1;
      if (to < 0 || to >= list.length) return doc;
      const [moved] = list.splice(b, 1);
      list.splice(to, 0, moved!);
      return doc;
    }
    case 'block.delete': {
      const { list, at } = blockList(doc, body);
      list.splice(index(body, at, list.length), 1);
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

/**
 * A columns block with `count` columns: new ones come empty; a column taken away gives its blocks to the
 * last column kept, so nothing is lost by changing the number.
 */
function resized(b: Columns, body: FormBody): Columns {
  const n = Number(str(body, 'count'));
  const count = [2, 3, 4].includes(n) ? n : b.columns.length;
  const columns = b.columns.slice(0, count).map((c) => ({ blocks: [...c.blocks] }));
  while (columns.length < count) columns.push({ blocks: [] });
  for (const gone of b.columns.slice(count)) columns[count - 1]!.blocks.push(...gone.blocks);
  return { ...b, columns };
}
