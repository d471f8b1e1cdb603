// Nothing typed is lost on a studio page that posts plainly (docs/web.md#builder-editing): the text of a
// `form[data-keep]` is kept in localStorage until the form is sent, put back after a reload (and the page
// says so), and leaving with it unsent asks first. The draft editor does the same in studio-editor.js.
const STORE = 'tributary.kept';
const forms = [...document.querySelectorAll('form[data-keep]')];
if (forms.length > 0) keep();

function keep() {
  const keyOf = (form) => `${location.pathname}|${form.dataset.keep}`;
  const read = () => {
    try {
      return JSON.parse(localStorage.getItem(STORE) ?? '{}') ?? {};
    } catch {
      return {};
    }
  };
  const write = (all) => {
    try {
      localStorage.setItem(STORE, JSON.stringify(all));
    } catch {
      // Storage full or refused: only the copy across a reload is missing; the leave warning still asks.
    }
  };
  const fieldsOf = (form) =>
    [...form.elements].filter((el) => el.name && !['hidden', 'submit', 'button', 'file'].includes(el.type));
  const nameOf = (el) => (el.type === 'checkbox' || el.type === 'radio' ? `${el.name}=${el.value}` : el.name);
  /** Fields by name (a name used by several fields, such as the form's rows, by its order). */
  const entries = (form) => {
    const seen = new Map();
    return fieldsOf(form).map((el) => {
      const n = nameOf(el);
      const i = seen.get(n) ?? 0;
      seen.set(n, i + 1);
      return [`${n}#${i}`, el];
    });
  };
  const valueOf = (el) => (el.type === 'checkbox' || el.type === 'radio' ? el.checked : el.value);
  const asShown = (form) =>
    fieldsOf(form).every((el) =>
      el.type === 'checkbox' || el.type === 'radio'
        ? el.checked === el.defaultChecked
        : el instanceof HTMLSelectElement
          ? el.selectedIndex ===
            Math.max(
              0,
              [...el.options].findIndex((o) => o.defaultSelected),
            )
          : el.value === el.defaultValue,
    );
  const unsent = new Set();
  const forget = (key) => {
    const all = read();
    delete all[key];
    write(all);
  };
  const changed = (e) => {
    const form = e.target instanceof Element ? e.target.closest('form[data-keep]') : null;
    if (!form) return;
    const key = keyOf(form);
    if (asShown(form)) {
      unsent.delete(key);
      forget(key);
      return;
    }
    unsent.add(key);
    const all = read();
    all[key] = {
      values: Object.fromEntries(entries(form).map(([k, el]) => [k, valueOf(el)])),
      at: Date.now(),
    };
    write(all);
  };
  document.addEventListener('input', changed);
  document.addEventListener('change', changed);
  document.addEventListener('submit', (e) => {
    const form = e.target instanceof HTMLFormElement && e.target.matches('[data-keep]') ? e.target : null;
    if (!form || e.defaultPrevented) return;
    // Sent: the page that answers shows it (a refusal keeps it in the form).
    unsent.delete(keyOf(form));
    forget(keyOf(form));
  });
  window.addEventListener('beforeunload', (e) => {
    if (unsent.size === 0) return;
    e.preventDefault();
    e.returnValue = '';
  });

  // After a reload: what was typed and not sent comes back, and the page says so.
  const all = read();
  let restored = 0;
  for (const form of forms) {
    const copy = all[keyOf(form)];
    if (!copy) continue;
    let put = false;
    for (const [k, el] of entries(form)) {
      if (!(k in copy.values) || valueOf(el) === copy.values[k]) continue;
      if (typeof copy.values[k] === 'boolean') el.checked = copy.values[k];
      else el.value = copy.values[k];
      put = true;
    }
    if (!put) {
      forget(keyOf(form));
      continue;
    }
    unsent.add(keyOf(form));
    restored += 1;
  }
  if (restored > 0) {
    const note = document.createElement('div');
    note.className = 'notice notice-warning';
    note.dataset.restored = '';
    const p = document.createElement('p');
    p.textContent =
      restored === 1
        ? 'What you typed before the page was reloaded is back in its form; it is saved when you press its button.'
        : `What you typed in ${restored} forms before the page was reloaded is back; each is saved when you press its button.`;
    note.append(p);
    const main = document.getElementById('main');
    const heading = main?.querySelector('h1');
    if (heading) heading.after(note);
    else main?.prepend(note);
  }
}
