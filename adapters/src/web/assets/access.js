// The token form (docs/web.md#access): choosing a preset ticks its scopes, and ticking a scope by hand
// makes the choice "Choose below", so what is ticked is what is sent. Without this script the server
// expands the preset the same way.
const form = document.querySelector('form[data-token-form]');
if (form) {
  const boxes = () => [...form.querySelectorAll('input[type="checkbox"][name="scopes"]')];
  form.addEventListener('change', (event) => {
    const input = event.target;
    if (!(input instanceof HTMLInputElement)) return;
    if (input.name === 'preset' && input.value !== 'custom') {
      const chosen = new Set((input.dataset.scopes ?? '').split(' ').filter(Boolean));
      for (const box of boxes()) box.checked = chosen.has(box.value);
    } else if (input.name === 'scopes') {
      const custom = form.querySelector('input[name="preset"][value="custom"]');
      if (custom instanceof HTMLInputElement) custom.checked = true;
    }
  });
}
