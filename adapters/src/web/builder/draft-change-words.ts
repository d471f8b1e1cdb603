// What changed between two states of a draft, in a person's words ("added the heading ‘Opening hours’"):
// what the editor says after an undo or a redo (docs/web.md#builder-editing). The draft's history keeps
// documents, not the edits that made them, so the change is found by comparing the two documents.
import type { DraftBlock, DraftDocument, DraftPage, LeafBlock } from '@tributary/domain';

/** Which of the two states the page shows now: a block is named as the person can find it. */
export type ShownState = 'older' | 'newer';

const QUOTE_MAX = 40;

/** Words quoted as the page shows them: one line, cut when long; '' when there are none. */
function quoted(words: string): string {
  const line = words.replace(/\s+/g, ' ').trim();
  if (!line) return '';
  return `‘${line.length > QUOTE_MAX ? `${line.slice(0, QUOTE_MAX - 1)}…` : line}’`;
}

/** The first words of a text block's Markdown, without its markers. */
function plainStart(markdown: string): string {
  const first = markdown.split('\n').find((l) => l.trim()) ?? '';
  return first
    .replace(/^\s*(?:#{1,6}|[-*+]|\d+[.)]|>)\s+/, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`]/g, '');
}

/** The words a block shows, for the kinds that have some of their own ('' for the others). */
function wordsOf(b: DraftBlock | LeafBlock): string {
  if (b.type === 'heading') return b.text;
  if (b.type === 'text') return plainStart(b.markdown);
  if (b.type === 'button') return b.label;
  if (b.type === 'image') return b.alt;
  return '';
}

/**
 * A block edited: when its visible words changed, from what to what ("changed the heading ‘Welcome’ to
 * ‘Welcome!’", the same whichever way it was stepped); otherwise the block as the page shows it now.
 */
function editWords(older: DraftBlock, newer: DraftBlock, shown: ShownState): string {
  const [from, to] = [quoted(wordsOf(older)), quoted(wordsOf(newer))];
  if (older.type === newer.type && from && to && from !== to) return `changed ${blockWords(older)} to ${to}`;
  return `edited ${blockWords(shown === 'older' ? older : newer)}`;
}

/** A block named as a person would: its kind and, when it has some, its words. */
export function blockWords(b: DraftBlock | LeafBlock): string {
  const named = (kind: string, words: string, none = `a ${kind}`) => {
    const q = quoted(words);
    return q ? `the ${kind} ${q}` : none;
  };
  switch (b.type) {
    case 'heading':
      return named('heading', wordsOf(b), 'an empty heading');
    case 'text':
      return named('text', wordsOf(b), 'an empty text block');
    case 'image':
      return named('picture', wordsOf(b));
    case 'gallery':
      return 'a gallery';
    case 'button':
      return named('button', wordsOf(b));
    case 'links':
      return 'a list of links';
    case 'form':
      return 'a form';
    case 'divider':
      return 'a divider';
    case 'columns':
      return 'a block of columns';
  }
}

const pageWords = (p: DraftPage) => `the page ${quoted(p.title) || p.path}`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const without = <T>(list: readonly T[], i: number) => [...list.slice(0, i), ...list.slice(i + 1)];

/** The changes to one page's blocks, each as words. */
function blockChanges(older: DraftBlock[], newer: DraftBlock[], shown: ShownState): string[] {
  const a = older.map((b) => JSON.stringify(b));
  const b = newer.map((x) => JSON.stringify(x));
  if (same(a, b)) return [];
  if (b.length === a.length + 1) {
    const at = b.findIndex((_x, i) => same(without(b, i), a));
    if (at >= 0) return [`added ${blockWords(newer[at]!)}`];
  }
  if (a.length === b.length + 1) {
    const at = a.findIndex((_x, i) => same(without(a, i), b));
    if (at >= 0) return [`deleted ${blockWords(older[at]!)}`];
  }
  if (a.length === b.length) {
    const differ = a.flatMap((x, i) => (x === b[i] ? [] : [i]));
    if (same([...a].sort(), [...b].sort())) {
      // One block taken out and put back elsewhere.
      for (const i of differ) {
        const j = b.indexOf(a[i]!);
        if (j >= 0 && same(without(a, i), without(b, j)))
          return [`moved ${blockWords(older[i]!)} ${j < i ? 'up' : 'down'}`];
      }
      return ['changed the order of the blocks'];
    }
    return differ.map((i) => editWords(older[i]!, newer[i]!, shown));
  }
  return ['changed several blocks'];
}

/** The changes to one page (matched by position): its title, address, description and blocks. */
function pageChanges(older: DraftPage, newer: DraftPage, shown: ShownState, named: boolean): string[] {
  const out: string[] = [];
  const shownPage = shown === 'older' ? older : newer;
  if (older.title !== newer.title)
    out.push(`renamed the page ${quoted(older.title)} to ${quoted(newer.title)}`);
  if (older.path !== newer.path)
    out.push(`changed the address of ${pageWords(shownPage)} from ${older.path} to ${newer.path}`);
  if ((older.description ?? '') !== (newer.description ?? ''))
    out.push(`changed the description of ${pageWords(shownPage)}`);
  const where = named ? ` on ${pageWords(shownPage)}` : '';
  out.push(...blockChanges(older.blocks, newer.blocks, shown).map((w) => `${w}${where}`));
  return out;
}

/** Every change from `older` to `newer`, each as words ("added the heading ‘Menu’ on the page ‘Home’"). */
export function draftChanges(older: DraftDocument, newer: DraftDocument, shown: ShownState): string[] {
  const out: string[] = [];
  const a = older.pages.map((p) => p.path);
  const b = newer.pages.map((p) => p.path);
  const named = Math.max(a.length, b.length) > 1;
  if (b.length === a.length + 1 && b.some((p, i) => same(without(b, i), a) && !a.includes(p))) {
    const at = b.findIndex((p) => !a.includes(p));
    out.push(`added ${pageWords(newer.pages[at]!)}`);
  } else if (a.length === b.length + 1 && a.some((p, i) => same(without(a, i), b) && !b.includes(p))) {
    const at = a.findIndex((p) => !b.includes(p));
    out.push(`deleted ${pageWords(older.pages[at]!)}`);
  } else if (a.length === b.length && !same(a, b) && same([...a].sort(), [...b].sort())) {
    // The same pages in another order (a page moved up or down), nothing else changed about them.
    const moved = a.findIndex((p, i) => p !== b[i]);
    out.push(`moved ${pageWords(older.pages[moved]!)} ${b.indexOf(a[moved]!) < moved ? 'up' : 'down'}`);
    const byPath = new Map(newer.pages.map((p) => [p.path, p]));
    for (const p of older.pages) out.push(...pageChanges(p, byPath.get(p.path)!, shown, named));
  } else if (a.length === b.length) {
    older.pages.forEach((p, i) => out.push(...pageChanges(p, newer.pages[i]!, shown, named)));
  } else out.push('changed the pages');
  if (!same(older.navigation, newer.navigation)) out.push('edited the navigation links');
  if (!same(older.footer, newer.footer)) out.push('edited the footer');
  return out;
}

/**
 * The change from `older` to `newer` as one phrase: the change itself when there is one, the first and
 * how many others when there are several, null when the two hold the same.
 */
export function draftChangeWords(
  older: DraftDocument,
  newer: DraftDocument,
  shown: ShownState,
): string | null {
  const all = draftChanges(older, newer, shown);
  if (all.length === 0) return null;
  if (all.length === 1) return all[0]!;
  const others = all.length - 1;
  return `${all[0]!}, and ${others === 1 ? 'one other change' : `${others} other changes`}`;
}
