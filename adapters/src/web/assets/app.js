// Progressive enhancement for every page (docs/web.md#assets): the pages work without it.
// - `button[data-copy]` copies the text of the element whose id it names.
// - `form[data-confirm]` asks before submitting (the server still checks everything).
// - the browser's time zone goes to the server (cookie `tz`); `time[data-zone]` is shown in it.

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

// Times (docs/web.md#times): the server writes them in the zone the `tz` cookie names, or in UTC saying
// "UTC" when it has none. The cookie is the browser's zone, so the next page comes in the reader's own
// time; this page's times written for another zone (data-zone) are rewritten here in the same form.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
// A zone the person chose on their home page is left as it is: the server writes in it. It is kept on
// their account (the page names it: html[data-zone-chosen]), or, from before, in this browser (tz_chosen).
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const chosen =
  document.documentElement.hasAttribute('data-zone-chosen') ||
  document.cookie.split('; ').includes('tz_chosen=1');
if (!chosen && zone && /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) {
  const current = document.cookie.split('; ').find((c) => c.startsWith('tz='));
  if (current !== `tz=${zone}`) {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `tz=${zone}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
  }
  const localTime = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  for (const time of document.querySelectorAll('time[datetime][data-zone]')) {
    if (time.getAttribute('data-zone') === zone) continue;
    const at = new Date(time.getAttribute('datetime') ?? '');
    if (Number.isNaN(at.getTime())) continue;
    const p = Object.fromEntries(localTime.formatToParts(at).map((x) => [x.type, x.value]));
    // data-clock: the end of a range on the same day ("20:30–20:34"), its time alone.
    time.textContent = time.hasAttribute('data-clock')
      ? `${p.hour}:${p.minute}`
      : `${Number(p.day)} ${MONTHS[Number(p.month) - 1]} ${p.year}, ${p.hour}:${p.minute}`;
    time.setAttribute('data-zone', zone);
  }
}
