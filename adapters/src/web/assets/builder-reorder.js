// The editor's block order, by drag and drop, keyboard or its buttons (docs/builder.md#moving-blocks).
// Without this script each block's Move up / Move down buttons post a form; with it, each block of the
// page gets a handle — drag it, or focus it and press Alt+↑ / Alt+↓ — and its Move up / Move down move
// it the same way. A move runs svc.builder.move_block (POST /api/builder/draft/move-block) over the
// revision the page shows, once any save the editor has out is answered; then the list is put in the new
// order in place (nothing else on the page is reloaded, so nothing typed elsewhere is lost), the focus
// stays on what moved it (the handle, or the button pressed — the other one once that one is at an end)
// and the move is said in the live region. A refused move (someone saved meanwhile) says so and offers a
// reload. Blocks inside columns keep their posted buttons. Looked up again after the editor swaps parts
// of the page in place (studio-editor.js).
let list = document.querySelector('ol[data-reorder]');
let live = document.querySelector('[data-reorder-status]');

const say = (words) => {
  if (!live) return;
  // Cleared first so the same words said twice are still announced.
  live.textContent = '';
  setTimeout(() => (live.textContent = words), 50);
};
const items = () => [...list.children].filter((li) => li.matches('li.block'));
const titleOf = (li) =>
  li
    .querySelector('.block-head h3')
    ?.textContent.replace(/^\d+\.\s*/, '')
    .trim() ?? 'block';
const revisionNow = () =>
  Number(
    document.querySelector('[data-draft-revision]')?.dataset.draftRevision ??
      document.querySelector('input[name=revision]')?.value,
  );

/** After a move: every form's revision, each block's position fields, numbers and end buttons follow. */
function renumber(revision) {
  for (const input of document.querySelectorAll('input[name=revision]')) input.value = String(revision);
  for (const el of document.querySelectorAll('[data-draft-revision]'))
    el.dataset.draftRevision = String(revision);
  const all = items();
  all.forEach((li, i) => {
    li.dataset.index = String(i);
    // Its id (#block-N, what links and the picture upload go by) and those of the blocks inside it.
    const old = li.id;
    if (old !== `block-${i}`) {
      for (const inner of li.querySelectorAll(`[id^="${old}-"]`))
        inner.id = `block-${i}${inner.id.slice(old.length)}`;
      li.id = `block-${i}`;
    }
    for (const input of li.querySelectorAll('input[name=block]')) input.value = String(i);
    // The buttons' names for screen readers ("Move up block 3", "… in block 3" inside columns).
    for (const hidden of li.querySelectorAll('.visually-hidden')) {
      const own = hidden.closest('li.block') === li;
      hidden.textContent = own
        ? hidden.textContent.replace(/\bblock \d+/, `block ${i + 1}`)
        : hidden.textContent.replace(/\bin block \d+/, `in block ${i + 1}`);
    }
    const h = li.querySelector('.block-head h3');
    if (h) h.textContent = h.textContent.replace(/^\d+\./, `${i + 1}.`);
    const tools = li.querySelector(':scope > .block-tools');
    const up = tools?.querySelector('input[name=direction][value=up]')?.form?.querySelector('button');
    const down = tools?.querySelector('input[name=direction][value=down]')?.form?.querySelector('button');
    if (up) up.disabled = i === 0;
    if (down) down.disabled = i === all.length - 1;
  });
  // A move is an ordinary save: it can be undone, and it drops what could have been redone.
  const step = (name) => document.querySelector(`form[data-step=${name}] button`);
  if (step('undo')) step('undo').disabled = false;
  if (step('redo')) step('redo').disabled = true;
  document.dispatchEvent(new CustomEvent('builder:draft-saved', { detail: { revision } }));
}

/** Resolves once the editor has no save out (#main[data-saving], studio-editor.js). */
function editorIdle() {
  const main = document.getElementById('main');
  if (!main || !('saving' in main.dataset)) return Promise.resolve();
  return new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if ('saving' in main.dataset) return;
      watch.disconnect();
      resolve();
    });
    watch.observe(main, { attributes: true, attributeFilter: ['data-saving'] });
  });
}

/** The Move up / Move down button of a block (page level), by direction. */
const moveButton = (li, direction) =>
  li
    .querySelector(`:scope > .block-tools input[name=direction][value=${direction}]`)
    ?.form?.querySelector('button') ?? null;

let busy = false;
/** Moves the block at `from` to `to`; `pressed` is the direction of the button used, if one was. */
async function move(from, to, pressed = null) {
  const all = items();
  if (busy || to < 0 || to >= all.length || from === to) return;
  busy = true;
  const li = all[from];
  try {
    await editorIdle();
    const res = await fetch('/api/builder/draft/move-block', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({
        ...(list.dataset.as && { targetAgentId: list.dataset.as }),
        siteId: list.dataset.site,
        page: list.dataset.page,
        revision: revisionNow(),
        from,
        to,
      }),
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) {
      const stale = body.code === 'builder.draft_stale';
      say(
        stale
          ? 'Not moved: the draft was changed somewhere else. Reload the page to see it, then move again.'
          : `Not moved: ${body.detail ?? 'the move was refused'}.`,
      );
      return;
    }
    const target = all[to];
    if (to > from) target.after(li);
    else target.before(li);
    renumber(body.result.revision);
    if (pressed) {
      const same = moveButton(li, pressed);
      const other = moveButton(li, pressed === 'up' ? 'down' : 'up');
      (same && !same.disabled ? same : other)?.focus();
    } else li.querySelector('[data-handle]')?.focus();
    say(`${titleOf(li)} moved to position ${to + 1} of ${all.length}.`);
  } catch {
    say('Not moved: the connection failed. Try again.');
  } finally {
    busy = false;
  }
}

/** Gives each block its handle once; run on load and after every in-place swap of the editor. */
function attach() {
  list = document.querySelector('ol[data-reorder]');
  live = document.querySelector('[data-reorder-status]');
  if (!list || !live) return;
  for (const more of document.querySelectorAll('[data-reorder-more]')) more.hidden = false;
  for (const li of items()) {
    const handle = li.querySelector('[data-handle]');
    if (!handle || handle.dataset.attached) continue;
    handle.dataset.attached = '1';
    handle.hidden = false;
    handle.addEventListener('keydown', (e) => {
      if (!e.altKey || (e.key !== 'ArrowUp' && e.key !== 'ArrowDown')) return;
      e.preventDefault();
      const from = items().indexOf(li);
      void move(from, e.key === 'ArrowUp' ? from - 1 : from + 1);
    });
    // Only the handle starts a drag, so selecting text in the block's fields still works.
    handle.addEventListener('pointerdown', () => (li.draggable = true));
    li.addEventListener('dragstart', (e) => {
      if (!li.draggable) return e.preventDefault();
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', String(items().indexOf(li)));
      li.classList.add('dragging');
    });
    li.addEventListener('dragend', () => {
      li.draggable = false;
      li.classList.remove('dragging');
      for (const other of items()) other.classList.remove('drop-before', 'drop-after');
    });
  }
  const dropIndex = (y) => {
    // The first block whose middle is below the pointer: the dragged block goes before it.
    const all = items();
    const i = all.findIndex((li) => {
      const r = li.getBoundingClientRect();
      return y < r.top + r.height / 2;
    });
    return i < 0 ? all.length : i;
  };
  if (list.dataset.attached) return;
  list.dataset.attached = '1';
  list.addEventListener('dragover', (e) => {
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    const all = items();
    const at = dropIndex(e.clientY);
    all.forEach((li, i) => {
      li.classList.toggle('drop-before', i === at);
      li.classList.toggle('drop-after', at === all.length && i === all.length - 1);
    });
  });
  list.addEventListener('drop', (e) => {
    e.preventDefault();
    const from = Number(e.dataTransfer.getData('text/plain'));
    if (!Number.isInteger(from)) return;
    const at = dropIndex(e.clientY);
    // Dropped before the block after itself, or on itself: no move. Past itself, one place less.
    void move(from, at > from ? at - 1 : at);
  });
}

// Move up / Move down of a page's own block: moved in place like the handle does (the form posts only
// without this script). Listening before studio-editor.js, which leaves a submit taken here alone.
document.addEventListener('submit', (e) => {
  const form = e.target;
  if (!(form instanceof HTMLFormElement) || e.defaultPrevented) return;
  const field = (n) => form.querySelector(`input[type=hidden][name=${n}]`)?.value;
  const direction = field('direction');
  if (field('edit') !== 'block.move' || field('column') !== undefined) return;
  if (direction !== 'up' && direction !== 'down') return;
  list = document.querySelector('ol[data-reorder]');
  live = document.querySelector('[data-reorder-status]');
  const li = form.closest('li.block');
  if (!list || !live || !li || li.parentElement !== list) return;
  e.preventDefault();
  const from = items().indexOf(li);
  void move(from, direction === 'up' ? from - 1 : from + 1, direction);
});

attach();
document.addEventListener('tributary:editor-swapped', attach);
