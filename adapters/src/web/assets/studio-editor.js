// The draft editor, enhanced (docs/web.md#builder-editing); every form works without this script.
// - Its forms post by fetch and the page takes the server's answer in place: the same HTML a post without
//   script gets, swapped in part by part, keeping focus, scroll, open sections and any form still being
//   typed in. A refusal is shown beside the form, in words with the code in small print.
// - Text typed in an editing form is saved after a pause (autosave), with the state in the edit bar,
//   and kept in localStorage until saved, so a reload mid-typing puts it back (and says so). Leaving with
//   unsaved text asks first.
// - Every other form with a text field (adding a block, site settings, a new form's name…) is "held":
//   not autosaved (its button decides), but kept the same way — through a swap, in localStorage across a
//   reload (restored with the notice), and leaving with its text unsent asks first.
// - Ctrl/Cmd+Z and Shift+Ctrl/Cmd+Z (or Ctrl+Y) undo and redo the draft when not typing in a field.
// - The preview can be shown at a phone's width, and is made again after a block is moved by its handle
//   (builder-reorder.js), as after any other save.
const editor = document.querySelector('.editor');
const main = document.getElementById('main');
if (editor && main) enhance();

function enhance() {
  const siteId = location.pathname.split('/')[3] ?? '';
  /** The forms whose text someone types: autosaved, kept locally, and kept through a swap. */
  const TYPED = new Set(['block.update', 'page.update', 'navigation.update', 'footer.update']);
  const IDLE_MS = 1500;
  const STORE = 'tributary.editor';
  /** Forms with typing not yet saved, by key, and what each one counts (typing since a send). */
  const dirty = new Map();
  const timers = new Map();
  let queue = Promise.resolve();
  let retryIn = 2000;

  const editOf = (form) => form.querySelector('input[name=edit]')?.value ?? '';
  const isDraftForm = (form) =>
    /\/builder\/sites\/[^/]+\/(draft|undo|redo|preview|settings)$/.test(new URL(form.action).pathname);
  /** Hidden fields that say nothing of which form it is (they change with each render or save). */
  const NOT_PLACE = new Set(['csrf', 'revision', 'base', 'as', 'preview']);
  const TEXTY =
    'textarea, input:not([type]), input[type=text], input[type=url], input[type=email], input[type=search], input[type=tel], input[type=number]';
  const keyOf = (form) => {
    // In the page or in a server's answer being swapped in: the editor's forms only.
    if (!form?.closest?.('.editor')) return null;
    const edit = editOf(form);
    const v = (n) => form.querySelector(`input[type=hidden][name=${n}]`)?.value ?? '';
    if (TYPED.has(edit)) return `${siteId}|${edit}|${v('page')}|${v('block')}|${v('column')}|${v('inner')}`;
    // Uploads go by studio-media.js (a file cannot be kept); forms with no text field lose nothing.
    if (form.matches('[data-upload-here]') || !form.querySelector(TEXTY)) return null;
    // A held form is named by where it posts and its hidden place fields (which page, which block, what type).
    const place = [...form.querySelectorAll('input[type=hidden]')]
      .filter((h) => h.name && !NOT_PLACE.has(h.name))
      .map((h) => `${h.name}=${h.value}`)
      .join('&');
    return `${siteId}|held|${new URL(form.action).pathname}|${place}`;
  };
  /** A form whose text waits for its button (not autosaved). */
  const isHeld = (key) => key?.includes('|held|') ?? false;
  const liveForm = (key) => [...document.querySelectorAll('form')].find((f) => keyOf(f) === key) ?? null;
  const shownRevision = () => document.querySelector('[data-draft-revision]')?.dataset.draftRevision ?? '';

  // --- The state line in the edit bar.
  const status = () => document.querySelector('[data-save-status]');
  /** The state line: short (two lines at most on a phone); `full`, when longer, is its title. */
  const say = (text, kind = '', full = '') => {
    const s = status();
    if (!s) return;
    s.textContent = text;
    s.dataset.state = kind;
    if (full && full !== text) s.title = full;
    else s.removeAttribute('title');
  };
  // The time as the page's own times are written (docs/web.md#times): in the zone the person chose, kept
  // on their account (html[data-zone-chosen]), else the one the `tz` cookie names (the browser's, as
  // app.js sets it, or one chosen in this browser before the account kept it), on a 24-hour clock.
  const pageZone = () => {
    const named =
      document.documentElement.getAttribute('data-zone-chosen') ||
      document.cookie
        .split('; ')
        .find((c) => c.startsWith('tz='))
        ?.slice(3);
    const zone = named ? decodeURIComponent(named) : undefined;
    try {
      return new Intl.DateTimeFormat('en-GB', { timeZone: zone }).resolvedOptions().timeZone;
    } catch {
      return undefined; // a zone this browser does not know: its own
    }
  };
  const clock = () =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: pageZone(),
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).format(new Date());

  // --- The local copy: what was typed, until it is saved.
  const readStore = () => {
    try {
      return JSON.parse(localStorage.getItem(STORE) ?? '{}') ?? {};
    } catch {
      return {};
    }
  };
  const writeStore = (all) => {
    try {
      localStorage.setItem(STORE, JSON.stringify(all));
    } catch {
      // Storage full or refused: autosave still runs, only the copy across a reload is missing.
    }
  };
  const typedValues = (form) => {
    const out = {};
    for (const el of form.elements) {
      if (!el.name || el.type === 'hidden' || el.type === 'submit' || el.type === 'file') continue;
      if (el.type === 'checkbox' || el.type === 'radio') out[`${el.name}=${el.value}`] = el.checked;
      else out[el.name] = el.value;
    }
    return out;
  };
  const putValues = (form, values) => {
    for (const el of form.elements) {
      if (!el.name || el.type === 'hidden' || el.type === 'submit' || el.type === 'file') continue;
      const k = el.type === 'checkbox' || el.type === 'radio' ? `${el.name}=${el.value}` : el.name;
      if (!(k in values)) continue;
      if (typeof values[k] === 'boolean') el.checked = values[k];
      else el.value = values[k];
    }
  };
  /** Whether every field of a form still holds what the page was served with. */
  const asShown = (form) =>
    [...form.elements].every((el) =>
      el.type === 'checkbox' || el.type === 'radio'
        ? el.checked === el.defaultChecked
        : el instanceof HTMLSelectElement
          ? el.selectedIndex ===
            Math.max(
              0,
              [...el.options].findIndex((o) => o.defaultSelected),
            )
          : !('defaultValue' in el) ||
            el.type === 'hidden' ||
            el.type === 'file' ||
            el.value === el.defaultValue,
    );
  const remember = (form) => {
    const key = keyOf(form);
    if (!key) return;
    const all = readStore();
    const hidden = (n) => form.querySelector(`input[name=${n}]`)?.value ?? '';
    // With the revision and base it was typed on: restored after a reload, a change made elsewhere to
    // the same part in between is then a conflict to resolve, not something silently overwritten.
    all[key] = {
      values: typedValues(form),
      revision: hidden('revision'),
      base: hidden('base'),
      at: Date.now(),
    };
    writeStore(all);
  };
  const forget = (key) => {
    const all = readStore();
    delete all[key];
    writeStore(all);
  };

  // --- Swapping the server's answer in.
  /** The open `<details>` of a tree, named by their place (the nearest id and the summary's text). */
  const detailsKey = (d) =>
    `${d.closest('[id]')?.id ?? ''}|${d.querySelector('summary')?.textContent?.trim() ?? ''}`;
  function swapIn(doc, sentKey, ok, sent = null) {
    const next = doc.querySelector('.editor');
    const nextMain = doc.getElementById('main');
    if (!next || !nextMain) return false;
    // Where the person is stays where it is on the screen: the focused field, else the editor (a notice
    // coming or going above it does not move what they look at).
    const scroll = window.scrollY;
    const active = document.activeElement;
    const focusTop = active && editor.contains(active) ? active.getBoundingClientRect().top : null;
    const editorTop = editor.getBoundingClientRect().top;
    // Field ids are made afresh by each render: the focused field is found again by its form and name.
    const focusForm = active?.form ? keyOf(active.form) : null;
    const focusName = active?.name ?? '';
    const focusId = active && active !== document.body ? active.id : '';
    const selection =
      active && 'selectionStart' in active ? [active.selectionStart, active.selectionEnd] : null;
    const open = new Set([...editor.querySelectorAll('details[open]')].map(detailsKey));
    // An "Add …" section that just added closes, as after a reload: the new part is in the list above it.
    if (ok && sent && /\.add$/.test(editOf(sent)))
      for (let d = sent.closest('details'); d; d = d.parentElement?.closest('details') ?? null)
        if (d.matches('.add-block, .add-in-column, .add-page')) open.delete(detailsKey(d));
    // Forms still being typed in stay as they are (their text, their revision and base); so does the one
    // just sent when it was refused and the answer has no form keeping its text.
    for (const f of document.querySelectorAll('form')) {
      const key = keyOf(f);
      if (!key) continue;
      const counterpart = [...next.querySelectorAll('form')].find((g) => keyOf(g) === key);
      if (!counterpart) continue;
      const keep =
        dirty.has(key) || (key === sentKey && !ok && !counterpart.querySelector('[data-conflict]'));
      if (!keep) continue;
      if (key === sentKey && ok) {
        // Our own save: the kept form now stands on the revision and base it made.
        for (const n of ['revision', 'base']) {
          const mine = f.querySelector(`input[name=${n}]`);
          const theirs = counterpart.querySelector(`input[name=${n}]`);
          if (mine && theirs) mine.value = theirs.value;
        }
      }
      counterpart.replaceWith(f);
    }
    for (const d of next.querySelectorAll('details')) if (open.has(detailsKey(d))) d.open = true;
    // The preview keeps the width chosen.
    const phone = document.querySelector('.editor-preview')?.classList.contains('phone');
    // What stands above the editor (notices, where the draft stands, the edit bar) is taken as it comes,
    // but the state line keeps its words.
    const said = status()?.textContent ?? '';
    const saidState = status()?.dataset.state ?? '';
    const saidFull = status()?.title ?? '';
    for (const n of [...main.childNodes]) if (n !== editor) n.remove();
    const before = [];
    for (const n of [...nextMain.childNodes]) {
      if (n === next || n.contains?.(next)) break;
      before.push(document.importNode(n, true));
    }
    editor.before(...before);
    editor.replaceChildren(...[...next.childNodes].map((n) => document.adoptNode(n)));
    say(said, saidState, saidFull);
    document.title = doc.title;
    setUpPreview(phone);
    // Times come written in the reader's zone already: the fetch carries the tz cookie (app.js).
    const again =
      (focusForm && focusName && liveForm(focusForm)?.elements.namedItem(focusName)) ||
      (focusId ? document.getElementById(focusId) : null);
    window.scrollTo(0, scroll);
    if (again && focusTop !== null) window.scrollBy(0, again.getBoundingClientRect().top - focusTop);
    else window.scrollBy(0, editor.getBoundingClientRect().top - editorTop);
    watchBar();
    if (again) {
      again.focus({ preventScroll: true });
      if (selection && 'setSelectionRange' in again) {
        try {
          again.setSelectionRange(selection[0], selection[1]);
        } catch {
          // Not a text field.
        }
      }
    }
    return true;
  }

  /** A refusal beside the form that was sent: the page's own notice, moved next to it. */
  function showBeside(key, form) {
    const target = (key && liveForm(key)) || (form.isConnected ? form : null);
    const notice = main.querySelector('.notice-error');
    if (!target || !notice) return;
    const copy = notice.cloneNode(true);
    copy.dataset.inlineError = '';
    copy.removeAttribute('role');
    // Undo and Redo sit in the sticky bar, which stays one or two lines: their refusal goes under it.
    const bar = form.dataset.step ? document.querySelector('[data-edit-bar]') : null;
    if (bar) {
      bar.parentElement?.querySelector(':scope > [data-inline-error]')?.remove();
      bar.after(copy);
      return;
    }
    target.querySelector('[data-inline-error]')?.remove();
    target.prepend(copy);
  }

  async function send(form, submitter) {
    const key = keyOf(form);
    // The form as the page now has it: an earlier answer may have swapped it for its new self.
    const step = form.dataset.step;
    const live =
      (key && liveForm(key)) || (step && document.querySelector(`form[data-step=${step}]`)) || form;
    if ((!key || isHeld(key)) && isDraftForm(live)) {
      // A form without typed text stands on the draft as now shown (our own saves move it on).
      const r = live.querySelector('input[name=revision]');
      if (r && shownRevision()) r.value = shownRevision();
    }
    const body = new URLSearchParams(new FormData(live, submitter ?? undefined));
    const typedAtSend = key ? dirty.get(key) : undefined;
    if (key) dirty.delete(key);
    say('Saving…', 'saving');
    let res;
    try {
      res = await fetch(live.action, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        // The answer is shown here, refusals too (the page's watcher in the tests reads the header).
        headers: { Accept: 'text/html', 'X-Tributary-In-Place': '1' },
      });
    } catch {
      // No answer (offline, a restart): the text stays marked unsaved and is tried again.
      if (key && !dirty.has(key)) dirty.set(key, typedAtSend ?? 1);
      say('Not saved — retrying', 'retrying');
      if (key) schedule(key, retryIn);
      retryIn = Math.min(retryIn * 2, 30000);
      return;
    }
    retryIn = 2000;
    const text = await res.text();
    const doc = new DOMParser().parseFromString(text, 'text/html');
    if (!doc.querySelector('.editor')) {
      // Not the editor (a sign-in page after the session ended, a server error): go there for real.
      if (key && !dirty.has(key)) dirty.set(key, typedAtSend ?? 1);
      say('Not saved — open the page again', 'error');
      if (res.redirected || !res.ok) location.assign(res.url);
      return;
    }
    const ok = res.ok;
    if (ok) {
      const url = new URL(res.url);
      for (const n of ['notice', 'stepFrom', 'stepTo']) url.searchParams.delete(n);
      history.replaceState(null, '', url.pathname + url.search + location.hash);
      if (key && !dirty.has(key)) forget(key);
    }
    swapIn(doc, key, ok, live);
    // An undo or a redo says what it changed: shortly here, in full in the notice under the bar (and in
    // the line's title); any other answer is a save.
    const notice = step ? main.querySelector('[data-step-short]') : null;
    const full = notice?.closest('.notice')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
    const short = notice?.dataset.stepShort ?? '';
    const confirm = step && !ok ? main.querySelector('[data-step-confirm]') : null;
    if (confirm) {
      // An undo that would take back a restore waits for a choice: the question is shown, not an error,
      // and read out (focused); Tab goes on to its two ways, neither taken by a stray Enter.
      say(short, 'asking', full);
      confirm.scrollIntoView({ block: 'nearest' });
      confirm.focus({ preventScroll: true });
    } else if (ok && short) say(`${short} · ${clock()}`, 'saved', `${full} (${clock()})`);
    else if (ok)
      say(
        `${step?.startsWith('undo') ? 'Undone' : step === 'redo' ? 'Redone' : 'Saved'} ${clock()}`,
        'saved',
      );
    else {
      const conflict = key && liveForm(key)?.querySelector('[data-conflict]');
      // A conflict waits for "keep mine" or "take theirs", not for autosave; any other refusal leaves the
      // text unsaved (and kept) until it is changed.
      if (key && !conflict && !dirty.has(key)) dirty.set(key, typedAtSend ?? 1);
      const code = main.querySelector('[data-error-code], .notice-error code')?.textContent ?? '';
      say(
        conflict
          ? 'Not saved — someone else changed this'
          : `${step ? 'Not done' : 'Not saved'}${code ? ` (${code})` : ''}`,
        'error',
      );
      // The conflict panel says it in the form already; any other refusal gets the page's notice there.
      if (!conflict) showBeside(key, live);
    }
    document.dispatchEvent(new CustomEvent('tributary:editor-swapped'));
  }
  /**
   * One request at a time, in order. While any is out, #main carries data-saving (what a test, or a
   * style, waits on: the page shown is not yet the answer).
   */
  let pending = 0;
  const inQueue = (step) => {
    pending += 1;
    main.dataset.saving = '';
    queue = queue
      .then(step)
      .catch(() => say('Not saved — retrying', 'retrying'))
      .finally(() => {
        pending -= 1;
        if (pending === 0) delete main.dataset.saving;
      });
    return queue;
  };
  const enqueue = (form, submitter) => inQueue(() => send(form, submitter));
  function schedule(key, delay = IDLE_MS) {
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        const form = liveForm(key);
        if (form && dirty.has(key) && !isHeld(key)) enqueue(form);
      }, delay),
    );
  }
  /** Saves every form with unsaved typing now (before an undo, say). */
  const flush = () => {
    for (const key of [...dirty.keys()].filter((k) => !isHeld(k))) {
      clearTimeout(timers.get(key));
      timers.delete(key);
      const form = liveForm(key);
      if (form) enqueue(form);
    }
    return queue;
  };

  // --- Events.
  document.addEventListener('input', (e) => {
    const form = e.target instanceof Element ? e.target.closest('form') : null;
    const key = form && keyOf(form);
    if (!key) return;
    dirty.set(key, (dirty.get(key) ?? 0) + 1);
    form.querySelector('[data-inline-error]')?.remove();
    if (isHeld(key) && asShown(form)) {
      // Typed back to what the page showed: nothing to keep or warn about.
      dirty.delete(key);
      forget(key);
      return;
    }
    remember(form);
    if (isHeld(key)) return; // kept, and saved by its button
    say('Unsaved changes…', 'dirty');
    schedule(key);
  });
  document.addEventListener('change', (e) => {
    const form = e.target instanceof Element ? e.target.closest('form') : null;
    if (form && keyOf(form) && e.target.matches('select, input[type=checkbox], input[type=radio]'))
      e.target.dispatchEvent(new Event('input', { bubbles: true }));
  });
  document.addEventListener('submit', (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || e.defaultPrevented) return;
    if (!isDraftForm(form)) {
      // A held form that posts elsewhere (a new form, an upload) leaves with the page: its text is sent.
      const key = keyOf(form);
      if (key) {
        dirty.delete(key);
        forget(key);
      }
      return;
    }
    e.preventDefault();
    const key = keyOf(form);
    if (key) {
      clearTimeout(timers.get(key));
      timers.delete(key);
      dirty.set(key, dirty.get(key) ?? 1);
    }
    // Undo and redo go after any text still waiting to be saved (the queue keeps the order).
    if (form.dataset.step) {
      flush();
      enqueue(form);
    } else enqueue(form, e.submitter);
  });
  document.addEventListener('click', (e) => {
    const take = e.target instanceof Element ? e.target.closest('a[data-take-theirs]') : null;
    if (!take) return;
    // Take theirs: the part as saved now, without what was typed.
    e.preventDefault();
    const form = take.closest('form');
    const key = form && keyOf(form);
    if (key) {
      dirty.delete(key);
      forget(key);
    }
    inQueue(async () => {
      const res = await fetch(take.href, {
        credentials: 'same-origin',
        headers: { Accept: 'text/html', 'X-Tributary-In-Place': '1' },
      });
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      swapIn(doc, null, true);
      say('Took their version', 'saved');
      document.dispatchEvent(new CustomEvent('tributary:editor-swapped'));
    });
  });
  document.addEventListener('keydown', (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
    const k = e.key.toLowerCase();
    const redo = (k === 'z' && e.shiftKey) || (k === 'y' && !e.shiftKey);
    if (k !== 'z' && !redo) return;
    // In a text field the browser undoes typing; elsewhere the keys walk the draft's history.
    if (e.target instanceof Element && e.target.closest('input, textarea, select, [contenteditable]')) return;
    const button = document.querySelector(`form[data-step=${redo ? 'redo' : 'undo'}] button`);
    if (!button || button.disabled) return;
    e.preventDefault();
    button.click();
  });
  window.addEventListener('beforeunload', (e) => {
    if (dirty.size === 0 && !document.querySelector('form [data-conflict]')) return;
    e.preventDefault();
    e.returnValue = '';
  });

  // --- The preview: at a phone's width or the pane's.
  function setUpPreview(phone) {
    const pane = document.querySelector('.editor-preview');
    const widths = pane?.querySelector('[data-preview-widths]');
    if (!pane || !widths) return;
    widths.hidden = false;
    const choose = (isPhone) => {
      pane.classList.toggle('phone', isPhone);
      for (const b of widths.querySelectorAll('button'))
        b.setAttribute('aria-pressed', String((b.dataset.width === 'phone') === isPhone));
    };
    choose(Boolean(phone));
    for (const b of widths.querySelectorAll('button'))
      b.addEventListener('click', () => choose(b.dataset.width === 'phone'));
  }
  setUpPreview(false);

  // --- A block moved by builder-reorder.js (it saves by itself, outside these forms) is a save like the
  // others: the state line says so and the preview is made again from the draft. Only the preview pane is
  // taken from the answer, so the moved block's handle keeps the focus.
  let previewWanted = false;
  document.addEventListener('builder:draft-saved', () => {
    say(`Saved ${clock()}`, 'saved');
    if (previewWanted) return; // one refresh for moves made while one is waiting
    previewWanted = true;
    inQueue(async () => {
      previewWanted = false;
      await refreshPreview();
    });
  });
  async function refreshPreview() {
    const form = document.querySelector('.editor-preview form[data-refresh-preview]');
    if (!form) return;
    const res = await fetch(form.action, {
      method: 'POST',
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
      headers: { Accept: 'text/html', 'X-Tributary-In-Place': '1' },
    });
    const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
    const next = doc.querySelector('.editor-preview');
    const pane = document.querySelector('.editor-preview');
    if (!res.ok || !next || !pane) return;
    const phone = pane.classList.contains('phone');
    pane.replaceWith(document.adoptNode(next));
    setUpPreview(phone);
    const url = new URL(res.url);
    url.searchParams.delete('notice');
    history.replaceState(null, '', url.pathname + url.search + location.hash);
  }

  // --- The edit bar sticks at the top of the editor's column; the page keeps its height as scroll padding
  // (studio.css), so a field focused or scrolled to is never under the bar.
  const barObserver = 'ResizeObserver' in window ? new ResizeObserver(() => barHeight()) : null;
  function barHeight() {
    const bar = document.querySelector('[data-edit-bar]');
    if (bar) document.documentElement.style.setProperty('--edit-bar-h', `${bar.offsetHeight}px`);
  }
  function watchBar() {
    const bar = document.querySelector('[data-edit-bar]');
    barObserver?.disconnect();
    if (bar) barObserver?.observe(bar);
    barHeight();
  }
  watchBar();

  // --- After a reload: what was typed and not saved comes back, and the page says so.
  const all = readStore();
  let restored = 0;
  let held = 0;
  for (const [key, copy] of Object.entries(all)) {
    if (!key.startsWith(`${siteId}|`)) continue;
    const form = liveForm(key);
    if (!form) continue;
    const now = typedValues(form);
    if (JSON.stringify(now) === JSON.stringify({ ...now, ...copy.values })) {
      forget(key); // the draft already holds it
      continue;
    }
    putValues(form, copy.values);
    for (const n of ['revision', 'base']) {
      const el = form.querySelector(`input[name=${n}]`);
      if (el && copy[n]) el.value = copy[n];
    }
    const details = form.closest('details');
    if (details) details.open = true;
    dirty.set(key, 1);
    restored += 1;
    if (isHeld(key)) held += 1;
    else schedule(key);
  }
  if (restored > 0) {
    const note = document.createElement('div');
    note.className = 'notice notice-warning';
    note.dataset.restored = '';
    const p = document.createElement('p');
    p.textContent =
      held === 0
        ? restored === 1
          ? 'What you typed before the page was reloaded is back in its form, and is being saved.'
          : `What you typed in ${restored} forms before the page was reloaded is back, and is being saved.`
        : held === restored
          ? restored === 1
            ? 'What you typed before the page was reloaded is back in its form; it is saved when you press its button.'
            : `What you typed in ${restored} forms before the page was reloaded is back; each is saved when you press its button.`
          : `What you typed in ${restored} forms before the page was reloaded is back: block, page, menu and footer text is being saved, the others are saved when you press their button.`;
    note.append(p);
    document.querySelector('[data-edit-bar]')?.after(note);
    if (held < restored) say('Unsaved changes…', 'dirty');
  }
}
