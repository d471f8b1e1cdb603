// Which block of a page a draft's newest changes worked on: where the editor puts a picture uploaded next
// (after the block last worked on), also after the page was opened again.
import type { DraftBlock, DraftDocument } from './draft-document.js';

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
const without = <T>(list: readonly T[], i: number) => [...list.slice(0, i), ...list.slice(i + 1)];

/** Keys sorted: the draft as read now (its read model) and as it was (its events) order them differently. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x).sort(([p], [q]) => (p < q ? -1 : p > q ? 1 : 0)))
      : x,
  );
}

/**
 * Which of a page's blocks a change from `older` to `newer` worked on, as its index in `newer`: the block
 * added, edited or moved, the one before a block deleted (the first, when the first was). Null when the
 * page's blocks are the same, or none is left.
 */
export function changedBlock(older: readonly DraftBlock[], newer: readonly DraftBlock[]): number | null {
  const a = older.map(canonical);
  const b = newer.map(canonical);
  if (same(a, b) || b.length === 0) return null;
  const first = b.findIndex((x, i) => x !== a[i]);
  const at = first < 0 ? b.length - 1 : first;
  if (a.length > b.length) return Math.max(0, at - 1);
  if (a.length === b.length) {
    const last = b.findLastIndex((x, i) => x !== a[i]);
    // A block moved down: it is the last of those that differ.
    if (last > at && b[last] === a[at] && same(without(a, at), without(b, last))) return last;
  }
  return Math.min(at, b.length - 1);
}

/**
 * For each page of the newest document, the block its newest change worked on, walking back through
 * `documents` (newest first, one per revision); a page none of them changed, or one that was not there
 * all along, is left out.
 */
export function lastChangedBlocks(documents: readonly DraftDocument[]): Record<string, number> {
  const newest = documents[0];
  const out: Record<string, number> = {};
  if (!newest) return out;
  for (const page of newest.pages) {
    for (let k = 0; k + 1 < documents.length; k++) {
      const n = documents[k]!.pages.find((p) => p.path === page.path);
      const o = documents[k + 1]!.pages.find((p) => p.path === page.path);
      if (!n || !o) break;
      // Later revisions left this page's blocks as they are, so the index holds for the newest document.
      const at = changedBlock(o.blocks, n.blocks);
      if (at !== null) {
        if (at < page.blocks.length) out[page.path] = at;
        break;
      }
    }
  }
  return out;
}
