// A site renamed while its draft still carries the old title where the starter put it: the home page's
// title and a level-1 heading that say exactly the old title follow the new one, so a rename is not
// undone by the home page still calling the site by its first name (often the owner's). Text the owner
// changed is theirs and is left alone.
import type { DraftBlock, DraftDocument } from './draft-document.js';

/** The draft with the old title replaced where the starter put it, or null when nothing says it. */
export function followRename(doc: DraftDocument, oldTitle: string, newTitle: string): DraftDocument | null {
  if (oldTitle === newTitle) return null;
  let changed = false;
  const pages = doc.pages.map((page) => {
    if (page.path !== '/') return page;
    const title = page.title === oldTitle ? newTitle : page.title;
    const blocks = page.blocks.map((b): DraftBlock => {
      if (b.type === 'heading' && b.level === 1 && b.text === oldTitle) {
        changed = true;
        return { ...b, text: newTitle };
      }
      return b;
    });
    if (title !== page.title) changed = true;
    return { ...page, title, blocks };
  });
  return changed ? { ...doc, pages } : null;
}
