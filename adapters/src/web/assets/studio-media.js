// The editor's picture upload, enhanced (docs/web.md#builder): a picture dropped on or picked in a
// `form[data-upload-here]` is checked against the page's limit before anything is sent, waits for
// "Upload picture" and, when the form requires alt text, for that too (asked for in words, the field
// focused), is then uploaded with a progress bar, and the editor opens where it landed: after the block
// last worked in (the server's guess from the draft's history, then the block focused here). Without
// this script the same form posts as it is (the browser asks for the alt text) and the server does the
// same in one post (the picture added to the page).
const MB = 1024 * 1024;
const words = (n) =>
  n >= MB ? `${+(n / MB).toFixed(1)} MB` : n >= 1024 ? `${+(n / 1024).toFixed(1)} KB` : `${n} bytes`;

/** The page's block (#block-N, not one inside columns) the person last worked in: a picture goes after it. */
let lastBlock = null;
document.addEventListener('focusin', (e) => {
  const block = e.target instanceof Element ? e.target.closest('[id^=block-]') : null;
  const n = block && /^block-(\d+)$/.exec(block.id);
  if (!n) return;
  lastBlock = n[1];
  // The forms say where the picture will go.
  for (const form of document.querySelectorAll('form[data-upload-here]')) {
    const after = form.querySelector('input[name=after]');
    if (after) after.value = lastBlock;
    const where = form.querySelector('[data-upload-where]');
    if (where)
      where.textContent = `after block ${Number(lastBlock) + 1}${block.dataset.words ? `, ${block.dataset.words}` : ''} (the one you last worked on)`;
  }
});

/** Enhances each upload form once; run on load and after every in-place swap of the editor. */
function attach() {
  for (const form of document.querySelectorAll('form[data-upload-here]')) {
    if (form.dataset.attached) continue;
    form.dataset.attached = '1';
    const input = form.querySelector('input[type=file]');
    const zone = form.querySelector('.drop-zone');
    const status = form.querySelector('[data-upload-status]');
    const maxBytes = Number(form.dataset.maxBytes) || Infinity;
    if (!input || !zone || !status) continue;
    const bar = document.createElement('progress');
    bar.max = 100;
    bar.value = 0;
    bar.hidden = true;
    bar.setAttribute('aria-label', 'Upload progress');
    status.before(bar);

    const say = (text, kind, code) => {
      status.textContent = text;
      status.className = `upload-status ${kind ?? ''}`;
      if (code) {
        const small = document.createElement('small');
        small.className = 'code';
        small.textContent = ` (${code})`;
        status.append(small);
      }
    };

    /** The file picked or dropped, waiting for the button. */
    let chosen = null;
    /** Checked here first, from the same limit the server holds, so a large file is not sent for nothing. */
    const fits = (file) => {
      if (file.size > maxBytes) {
        say(
          `“${file.name}” is ${words(file.size) === words(maxBytes) ? 'just over' : words(file.size)}; a picture is at most ${words(maxBytes)}. Save it smaller (a JPEG, or fewer pixels) and try again.`,
          'error',
          'builder.media_too_large',
        );
        return false;
      }
      return true;
    };
    const choose = (file) => {
      chosen = null;
      if (!file || !fits(file)) return;
      chosen = file;
      const alt = form.querySelector('[name=alt]');
      say(
        `“${file.name}” (${words(file.size)}) is ready: ${alt && !alt.value.trim() ? 'write its alt text (what it shows), then ' : ''}press Upload picture.`,
      );
      if (alt && !alt.value.trim()) alt.focus();
    };
    const send = (file) => {
      if (!file) {
        say('Pick a picture first (or drop one here).', 'error');
        return;
      }
      if (!fits(file)) return;
      const alt = form.querySelector('[name=alt]');
      if (alt?.required && !alt.value.trim()) {
        // The picture waits: a picture block needs its alt text, as its own form asks.
        say(
          `Write the alt text of “${file.name}” first: what the picture shows, for people who cannot see it. Then press Upload picture.`,
          'error',
        );
        alt.setAttribute('aria-invalid', 'true');
        alt.focus();
        return;
      }
      alt?.removeAttribute('aria-invalid');
      const body = new FormData(form);
      body.set('file', file, file.name);
      if (lastBlock !== null) body.set('after', lastBlock);
      const xhr = new XMLHttpRequest();
      xhr.open('POST', form.action);
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.responseType = 'json';
      bar.hidden = false;
      bar.value = 0;
      form.setAttribute('aria-busy', 'true');
      say(`Uploading “${file.name}” (${words(file.size)})…`);
      xhr.upload.addEventListener('progress', (e) => {
        if (e.lengthComputable) {
          bar.value = Math.round((100 * e.loaded) / e.total);
          if (e.loaded === e.total) say(`Uploaded; preparing “${file.name}” and adding it to the page…`);
        }
      });
      const failed = (text, code) => {
        form.removeAttribute('aria-busy');
        bar.hidden = true;
        say(text, 'error', code);
      };
      xhr.addEventListener('load', () => {
        const answer = xhr.response ?? {};
        if (xhr.status >= 200 && xhr.status < 300 && typeof answer.location === 'string') {
          bar.value = 100;
          say('Added to the page. Opening it…', 'done');
          const next = new URL(answer.location, window.location.href);
          // Only the #block-N differs from where we stand: assigning it would just scroll, not load the page
          // that holds the new block.
          if (next.pathname + next.search === window.location.pathname + window.location.search) {
            history.replaceState(null, '', next.href);
            window.location.reload();
          } else window.location.assign(next.href);
        } else failed(capital(answer.message ?? `the upload failed (${xhr.status})`), answer.code);
      });
      xhr.addEventListener('error', () =>
        failed('The upload did not reach the server: check the connection and try again.'),
      );
      xhr.send(body);
    };

    input.addEventListener('change', () => choose(input.files?.[0]));
    zone.addEventListener('dragover', (e) => {
      e.preventDefault();
      zone.classList.add('dragging');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('dragging');
      const files = e.dataTransfer?.files;
      // The dropped file goes into the field too, so the form shows it and its button sends it.
      try {
        if (files?.length) input.files = files;
      } catch {
        // An older browser: the file is still kept for the button (below).
      }
      choose(files?.[0]);
    });
    // The file may be dropped, not picked: the script checks there is one (and says so), not the browser.
    form.noValidate = true;
    // The button uploads what was picked or dropped, with the alt text as written by then.
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      send(chosen ?? input.files?.[0]);
    });
  }
}
attach();
document.addEventListener('tributary:editor-swapped', attach);

function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]$/.test(s) ? '' : '.');
}
