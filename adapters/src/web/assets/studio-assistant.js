// The assistant's pages, enhanced (docs/web.md#assistant). Without this script every form still posts
// and redirects; with it:
// - the message form streams the reply: POST /api/autobot/chat with `stream: true`, the person's message
//   shown at once and the reply's deltas as they arrive, then the thread page (which shows the recorded
//   reply and its plan card); a failure is said in words and the message stays in the box;
// - an example request is sent with one click, streamed like a typed one;
// - a picture dropped on the message box or picked is uploaded at once (POST /api/autobot/attachments)
//   and goes with the next message;
// - confirming a plan shows its steps running until the answer (the steps run inside that request);
// - a device sign-in polls the provider by itself at the interval it asked for.
import { ApiProblem, api, showProblem } from './api.js';

const chatForm = document.querySelector('form[data-chat]');
const attachForm = document.querySelector('form[data-attach]');

/** Reads server-sent events from a fetch response, calling `on(event, data)` for each. */
async function readEvents(res, on) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data = [];
      for (const line of chunk.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data.push(line.slice(6));
      }
      if (data.length) on(event, JSON.parse(data.join('\n')));
    }
  }
}

/** A refusal in the words the page gives for its code (the code stays in small print). */
function inWords(error, words) {
  if (error instanceof ApiProblem && words[error.code]) {
    error.title = words[error.code];
    error.detail = undefined;
  }
  return error;
}

if (chatForm) {
  const reply = chatForm.querySelector('[data-reply]');
  const words = JSON.parse(chatForm.dataset.errorWords || '{}');
  for (const example of document.querySelectorAll('form[data-example]'))
    example.addEventListener('submit', (event) => {
      event.preventDefault();
      chatForm.querySelector('textarea[name=message]').value =
        example.querySelector('input[name=message]').value;
      chatForm.requestSubmit();
    });
  chatForm.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(chatForm);
    const body = { message: String(data.get('message') ?? ''), stream: true };
    // The plan's sentences name times in the person's own zone ("published on 5 Dec at 14:02"): the
    // zone of the page's times (the account's choice, else the tz cookie's), absent until there is one.
    const timeZone = data.get('timeZone');
    if (timeZone) body.timeZone = String(timeZone);
    const threadId = data.get('threadId');
    if (threadId) body.threadId = String(threadId);
    const ids = data.getAll('attachmentIds').map(String);
    if (ids.length) body.attachmentIds = ids;
    const send = chatForm.querySelector('button[type=submit]');
    send.disabled = true;
    reply.replaceChildren();
    // The person's message at once, as it will stand in the conversation.
    const mine = document.createElement('div');
    mine.className = 'message message-person';
    const mineLabel = document.createElement('p');
    mineLabel.className = 'small muted';
    mineLabel.textContent = 'You';
    const mineText = document.createElement('div');
    mineText.className = 'message-text';
    mineText.textContent = body.message;
    mine.append(mineLabel, mineText);
    const bubble = document.createElement('div');
    bubble.className = 'message message-assistant streaming';
    const label = document.createElement('p');
    label.className = 'small muted';
    label.textContent = 'Assistant is replying…';
    const text = document.createElement('div');
    text.className = 'message-text';
    text.dataset.streamed = '';
    bubble.append(label, text);
    reply.append(mine, bubble);
    try {
      const res = await fetch('/api/autobot/chat', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(body),
      });
      const type = res.headers.get('content-type') ?? '';
      if (!type.includes('text/event-stream')) {
        const problem = await res.json().catch(() => ({}));
        throw new ApiProblem(problem, res.status);
      }
      let result = null;
      let failure = null;
      await readEvents(res, (name, payload) => {
        if (name === 'delta') text.textContent += payload.text;
        else if (name === 'message') result = payload.result;
        else if (name === 'error') failure = new ApiProblem(payload, payload.status ?? 503);
      });
      if (failure) throw failure;
      if (!result) throw new Error('the reply ended early');
      label.textContent = 'Assistant';
      // `m` makes it a new URL even on the same thread (a hash alone would not load the page again).
      window.location.assign(
        `/assistant/threads/${result.threadId}?m=${result.message.messageId}#m-${result.message.messageId}`,
      );
    } catch (error) {
      // Nothing was recorded: the reply so far goes, the message stays in the box to send again.
      bubble.remove();
      showProblem(reply, inWords(error, words));
      send.disabled = false;
    }
  });
}

if (chatForm && attachForm) {
  const input = attachForm.querySelector('input[type=file]');
  const status = chatForm.querySelector('[data-attached]');
  const drop = document.querySelectorAll('[data-drop], form[data-chat]');
  // With the upload done here, the separate submit button is not needed.
  attachForm.querySelector('[data-attach-submit]')?.setAttribute('hidden', '');
  const count = () => chatForm.querySelectorAll('input[name=attachmentIds]').length;
  const upload = async (file) => {
    status.hidden = false;
    status.textContent = `Uploading ${file.name}…`;
    const form = new FormData();
    form.append('file', file);
    try {
      const res = await fetch('/api/autobot/attachments', {
        method: 'POST',
        credentials: 'same-origin',
        body: form,
      });
      const json = await res.json().catch(() => ({}));
      if (!res.ok) throw new ApiProblem(json, res.status);
      const hidden = document.createElement('input');
      hidden.type = 'hidden';
      hidden.name = 'attachmentIds';
      hidden.value = json.result.attachmentId;
      chatForm.append(hidden);
      status.textContent = `${count()} picture${count() === 1 ? '' : 's'} attached (${file.name} is ${json.result.width}×${json.result.height}).`;
    } catch (error) {
      showProblem(status, error);
    }
  };
  input.addEventListener('change', () => {
    for (const file of input.files ?? []) void upload(file);
    input.value = '';
  });
  for (const zone of drop) {
    zone.addEventListener('dragover', (e) => {
      e.preventDefault();
      zone.classList.add('dragging');
    });
    zone.addEventListener('dragleave', () => zone.classList.remove('dragging'));
    zone.addEventListener('drop', (e) => {
      e.preventDefault();
      zone.classList.remove('dragging');
      for (const file of e.dataTransfer?.files ?? []) void upload(file);
    });
  }
}

// A plan being confirmed: its chosen steps show as running while the request runs them.
for (const form of document.querySelectorAll('form[data-plan-form]')) {
  form.addEventListener('submit', (event) => {
    const decision = event.submitter?.value ?? 'confirm';
    const card = form.closest('[data-plan]');
    const chosen = [...card.querySelectorAll('input[name=steps]:checked')].map((i) => i.value);
    const progress = form.querySelector('[data-progress]');
    const steps = [...card.querySelectorAll('.step[data-status=pending]')].filter(
      (s) => !chosen.length || chosen.includes(s.dataset.step),
    );
    if (decision === 'confirm') {
      for (const step of steps) step.classList.add('running');
      progress.textContent = `Running ${steps.length} step${steps.length === 1 ? '' : 's'}…`;
    } else progress.textContent = 'Cancelling…';
    // Keep the decision: disabled buttons are not submitted, so carry it in a hidden field.
    const keep = document.createElement('input');
    keep.type = 'hidden';
    keep.name = 'decision';
    keep.value = decision;
    form.append(keep);
    for (const b of form.querySelectorAll('button')) b.disabled = true;
  });
  // The buttons say what ticking does.
  const card = form.closest('[data-plan]');
  const boxes = card.querySelectorAll('input[name=steps]');
  const [confirm, cancel] = form.querySelectorAll('button');
  for (const box of boxes)
    box.addEventListener('change', () => {
      const n = card.querySelectorAll('input[name=steps]:checked').length;
      confirm.textContent = n ? `Confirm ${n} chosen` : 'Confirm all';
      cancel.textContent = n ? `Cancel ${n} chosen` : 'Cancel all';
    });
}

// A device sign-in in progress: check at the provider's interval until it is approved, refused or over.
const signIn = document.querySelector('[data-sign-in]');
if (signIn) {
  const status = signIn.querySelector('[data-poll-status]');
  const as =
    new URLSearchParams(window.location.search).get('as') ??
    signIn.closest('main')?.querySelector('input[name=as]')?.value;
  let interval = Number(signIn.dataset.interval) || 5;
  const poll = async () => {
    try {
      const { result } = await api('/api/autobot/codex/device/poll', {
        method: 'POST',
        body: { signInId: signIn.dataset.signIn, ...(as ? { targetAgentId: as } : {}) },
      });
      if (result.status === 'connected') {
        window.location.assign(`/assistant/account${as ? `?as=${encodeURIComponent(as)}` : ''}`);
        return;
      }
      interval = result.intervalSeconds ?? interval;
      status.textContent = 'Waiting for you to approve it at the provider…';
      setTimeout(poll, interval * 1000);
    } catch (error) {
      showProblem(status, error);
    }
  };
  setTimeout(poll, interval * 1000);
}
