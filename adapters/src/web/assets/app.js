// Progressive enhancement for every page (docs/web.md#assets): the pages work without it.
// - `button[data-copy]` copies the text of the element whose id it names.
// - `form[data-confirm]` asks before submitting (the server still checks everything).
// - `time[datetime]` is shown in the reader's time zone.

document.addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-copy]') : null;
  if (!button) return;
  const source = document.getElementById(button.getAttribute('data-copy') ?? '');
  if (!source) return;
  try {
    await navigator.clipboard.writeText(source.textContent ?? '');
    button.textContent = 'Copied';
  } catch {
    // No clipboard permission: select the text so the person can copy it themselves.
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
});

document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement)) return;
  const question = form.getAttribute('data-confirm');
  if (question && !window.confirm(question)) event.preventDefault();
});

// Copy buttons are hidden until this script runs: without it there is nothing they could do.
for (const button of document.querySelectorAll('button[data-copy][hidden]')) button.hidden = false;

// Times are written by the server in UTC (it does not know the reader's time zone): here they become the
// reader's own, with the UTC form kept as the tooltip.
const localTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
for (const time of document.querySelectorAll('time[datetime]')) {
  const at = new Date(time.getAttribute('datetime') ?? '');
  if (Number.isNaN(at.getTime())) continue;
  time.title = (time.textContent ?? '').trim();
  time.textContent = localTime.format(at);
}
