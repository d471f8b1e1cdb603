// The assistant's pages (docs/web.md#assistant): threads, a conversation with its plan cards (Confirm
// or Cancel, all steps or chosen ones), pictures to attach, the vault document, the settings and the
// connected external account. Every form posts to a page route that runs the same catalogue operation
// as /api/autobot/* and redirects, so nothing needs JavaScript; studio-assistant.js streams the reply
// over POST /api/autobot/chat (server-sent events), uploads dropped pictures and shows a plan's progress.
import { domainError, invalid, type DomainError } from '@tributary/domain';
import {
  addAttachment,
  BUILTIN_PLANNER_MODEL,
  chat,
  decideActions,
  deleteThread,
  disconnectAccount,
  listAccountModels,
  listAssistantProvenance,
  listThreads,
  pollAccountSignIn,
  readAccount,
  readAssistantSettingsOperation,
  readAssistantStatus,
  readAssistantCredential,
  readThread,
  readVault,
  READ_AREAS,
  READ_AREA_WORDS,
  type ReadArea,
  startAccountSignIn,
  updateAssistantSettings,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { readMultipartUpload, sameOrigin, type HttpContext } from '../../http/index.js';
import {
  badge,
  button,
  card,
  checkboxes,
  csrfField,
  emptyState,
  field,
  keyValues,
  linkButton,
  notice,
  postButton,
  problemNotice,
  selectField,
  table,
  when,
} from '../components.js';
import { html, raw, type Html } from '../html.js';
import {
  pagePrologue,
  statusOfError,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { str, type FormBody } from '../builder/draft-edits.js';
import {
  actingAs,
  asField,
  attempt,
  href,
  isUuid,
  ownersOf,
  sendStudioPage,
  tabs,
  target,
} from '../builder/studio-support.js';
import { pageMarkdown } from '../markdown.js';
import { readerClock } from '../reader-zone.js';
import { PAGE_ERROR_WORDS } from '../error-words.js';
import { assistantProblem, chatErrorWords } from './error-words.js';
import { argsWithMarks, STEP_STATUS, SOURCE_NAMES } from './plan-card.js';

/** Requests to start from, each a button that sends it (every planner understands them). */
const EXAMPLES = [
  'What did my agents do today?',
  'List my identities',
  'Create an identity called Ada the baker',
  'Roll back my site to the previous version',
] as const;

const NOTICES: Record<string, string> = {
  confirmed: 'Plan confirmed: each step’s outcome is below.',
  // Another request (a second tab, a double click) recorded the confirmation first: this one only saw
  // the plan through, so no step ran twice.
  resumed:
    'This plan had already been confirmed (in another tab or window, perhaps), so it was not confirmed twice and no step ran twice. What each step did is shown in the plan below.',
  cancelled: 'Cancelled: nothing of it ran.',
  deleted: 'Thread deleted.',
  attached: 'Picture attached: it goes with your next message.',
  settings: 'Settings saved.',
  disconnected: 'Account disconnected.',
};

const PLAN_STATUS: Record<string, [string, 'neutral' | 'ok' | 'warn' | 'danger']> = {
  proposed: ['waiting for you', 'warn'],
  confirmed: ['running', 'warn'],
  completed: ['done', 'ok'],
  failed: ['a step failed', 'danger'],
  cancelled: ['cancelled', 'neutral'],
  expired: ['expired', 'neutral'],
};

type ThreadRead = Awaited<ReturnType<typeof readThread.run>>;
type Message = ThreadRead['messages'][number];

export function assistantPages(ctx: HttpContext): Router {
  const r = Router();
  const { posts, run, noticeOf } = pagePrologue(ctx, NOTICES);
  const section = (current: string, as?: string) =>
    tabs([
      { href: '/assistant', label: 'Conversations', current: current === 'threads' },
      { href: href('/assistant/vault', as), label: 'Vault', current: current === 'vault' },
      { href: '/assistant/settings', label: 'Settings', current: current === 'settings' },
      { href: href('/assistant/account', as), label: 'Connected account', current: current === 'account' },
    ]);

  /**
   * The message box, with pictures attached so far (`attach` ids) and the picture picker; `typed` is a
   * message that was not sent (it failed), given back so nothing typed is lost.
   */
  function composer(
    person: PagePerson,
    threadId: string | undefined,
    attached: string[],
    typed?: string,
  ): Html {
    return html`<section class="card composer" aria-labelledby="composer-h">
      <h2 id="composer-h">${threadId ? 'Reply' : 'Ask the assistant'}</h2>
      <form
        method="post"
        action="/assistant/chat"
        class="stack"
        data-chat${threadId ? html` data-thread="${threadId}"` : ''}
        data-error-words="${JSON.stringify(chatErrorWords())}"
      >
        ${csrfField(person.csrf)}
        ${threadId ? html`<input type="hidden" name="threadId" value="${threadId}" />` : ''}
        ${attached.map((id) => html`<input type="hidden" name="attachmentIds" value="${id}" />`)}
        ${readerClock().known ? html`<input type="hidden" name="timeZone" value="${readerClock().zone}" />` : ''}
        ${field({ name: 'message', label: 'Your message', type: 'textarea', required: true, maxlength: 8000, value: typed, hint: 'For example: create an identity called Soup Kitchen, then publish my site. Nothing that changes anything runs before you confirm it.', attrs: 'rows="3"' })}
        ${attached.length ? html`<p class="small" data-attached>${attached.length} picture${attached.length === 1 ? '' : 's'} attached.</p>` : html`<p class="small" data-attached hidden></p>`}
        <div class="actions">${button('Send', { kind: 'primary' })}</div>
        <div class="reply-live" data-reply aria-live="polite"></div>
      </form>
      <form
        method="post"
        action="/assistant/attachments"
        enctype="multipart/form-data"
        class="stack attach"
        data-attach
      >
        ${csrfField(person.csrf)}
        ${threadId ? html`<input type="hidden" name="threadId" value="${threadId}" />` : ''}
        ${attached.map((id) => html`<input type="hidden" name="attached" value="${id}" />`)}
        <div class="field drop-zone" data-drop>
          <label for="attach-file">Attach a picture (PNG, JPEG, WebP or GIF; drop it here or pick one)</label>
          <input
            id="attach-file"
            name="file"
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif"
          />
        </div>
        <div class="actions" data-attach-submit>${button('Attach picture')}</div>
      </form>
    </section>`;
  }

  /** A new conversation starts from one of these with one click (a form each, so without JavaScript too). */
  function examples(person: PagePerson): Html {
    return html`<section class="card examples" aria-labelledby="examples-h">
      <h2 id="examples-h">Try asking</h2>
      <ul class="plain cluster">
        ${EXAMPLES.map(
          (text) =>
            html`<li>
              <form method="post" action="/assistant/chat" data-example>
                ${csrfField(person.csrf)}<input type="hidden" name="message" value="${text}" />
                <button type="submit" class="btn">${text}</button>
              </form>
            </li>`,
        )}
      </ul>
    </section>`;
  }

  // ---------------------------------------------------------------- threads
  r.get('/assistant', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (!person) return;
    const before =
      typeof req.query.before === 'string' && isUuid(req.query.before) ? req.query.before : undefined;
    const [threads, status] = await Promise.all([
      run(listThreads, { limit: 20, ...(before && { before }) }, person),
      run(readAssistantStatus, {}, person),
    ]);
    const attached = attachedOf(req);
    const builtin = status.planner === 'builtin' && status.turn.route === 'builtin';
    const body = html`${noticeOf(req)}${section('threads')}
    ${
      builtin
        ? notice(
            'info',
            html`<p>
                No language model is connected to this instance, so the built-in planner answers: it
                understands a few plain requests, such as the examples below and “help”. For anything else,
                the operator can connect a language model.
              </p>
              ${person.isOperator ? html`<p class="small muted" data-operator-hint>You are an operator: set <code>LLM_BASE_URL</code> (with <code>LLM_MODEL</code> and <code>LLM_API_KEY</code>) to connect an OpenAI-compatible model; see docs/assistant.md.</p>` : ''}`,
          )
        : ''
    }
    ${examples(person)} ${composer(person, undefined, attached)}
    ${card(
      'Conversations',
      threads.threads.length
        ? html`<ul class="plain stack thread-list">
              ${threads.threads.map(
                (t) =>
                  html`<li>
                    <a href="/assistant/threads/${t.threadId}">${t.title}</a>
                    <span class="small muted"
                      >${t.messageCount} messages · ${when(t.lastActivityAt, 'never', { ago: true })}</span
                    >
                  </li>`,
              )}
            </ul>
            ${threads.nextBefore ? html`<p><a href="/assistant?before=${threads.nextBefore}">Older conversations</a></p>` : ''}`
        : emptyState('No conversations yet.'),
      { id: 'threads' },
    )}`;
    sendStudioPage(res, person, {
      title: 'Assistant',
      current: '/assistant',
      body,
      scripts: ['studio-assistant.js'],
      lede: 'Ask in plain words; the assistant proposes a plan, and nothing that changes anything runs until you confirm it.',
    });
  });

  async function threadPage(
    req: Request,
    res: Response,
    person: PagePerson,
    threadId: string,
    error?: DomainError,
    typed?: string,
  ) {
    const read = await attempt(() => run(readThread, { threadId, limit: 200 }, person));
    if (!read.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Conversation not found', current: '/assistant', body: problemNotice(read.error) },
        404,
      );
    const owners = await ownersOf(ctx, person);
    const nameOf = (agentId: string) => owners.find((o) => o.agentId === agentId)?.name ?? agentId;
    const { thread, messages } = read.value;
    const body = html`${noticeOf(req)}${section('threads')} ${error ? assistantProblem(error) : ''}
      <p class="small"><a href="/assistant">All conversations</a></p>
      <h2 class="visually-hidden">Messages</h2>
      <ol class="messages plain stack">
        ${messages.map((m) => messageView(m, person, thread.threadId, nameOf))}
      </ol>
      ${messages.length === 0 ? examples(person) : ''}
      ${composer(person, thread.threadId, attachedOf(req), typed)}
      ${postButton({ action: `/assistant/threads/${thread.threadId}/delete`, csrf: person.csrf, label: 'Delete this conversation', kind: 'danger', confirm: 'Delete this conversation? The log keeps what happened.' })}`;
    sendStudioPage(
      res,
      person,
      { title: thread.title, current: '/assistant', body, scripts: ['studio-assistant.js'] },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/assistant/threads/:threadId', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (!person) return;
    const threadId = req.params.threadId;
    if (!isUuid(threadId)) return res.redirect(303, '/assistant');
    await threadPage(req, res, person, threadId);
  });

  // Without JavaScript: the message is sent as a plain form post, and the answer is the thread page.
  r.post('/assistant/chat', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const body = req.body as FormBody;
    const threadId = str(body, 'threadId');
    const ids = body.attachmentIds;
    const attachmentIds = (Array.isArray(ids) ? ids : ids ? [ids] : []).filter(isUuid);
    const said = await attempt(() =>
      run(
        chat,
        {
          message: str(body, 'message'),
          ...(isUuid(threadId) && { threadId }),
          ...(attachmentIds.length && { attachmentIds }),
          // The plan's sentences name times in the person's zone (the tz cookie), when it is known.
          ...(readerClock().known && { timeZone: readerClock().zone }),
        },
        person,
      ),
    );
    if (!said.ok) {
      // The message was not sent: it comes back in the message box, so nothing typed is lost.
      const typed = str(body, 'message');
      if (isUuid(threadId)) return threadPage(req, res, person, threadId, said.error, typed);
      return sendStudioPage(
        res,
        person,
        {
          title: 'Assistant',
          current: '/assistant',
          body: html`${assistantProblem(said.error)} ${composer(person, undefined, attachmentIds, typed)}
            <p><a href="/assistant">All conversations</a></p>`,
          scripts: ['studio-assistant.js'],
        },
        statusOfError(said.error),
      );
    }
    res.redirect(303, `/assistant/threads/${said.value.threadId}#m-${said.value.message.messageId}`);
  });

  // A picture for the next message: the session is checked before the body is read, the CSRF token
  // (a field of the multipart form) before the picture is handed on.
  r.post('/assistant/attachments', sameOrigin(ctx.baseUrl), async (req, res) => {
    const signedIn = await requirePerson(ctx, req, res);
    if (!signedIn) return;
    const maxBytes = ctx.services.assistantAttachments.processor.limits.maxBytes;
    const form = await attempt(() =>
      readMultipartUpload(req, res, {
        maxBytes,
        fields: new Set(['csrf', 'threadId', 'attached']),
        tooLarge: () =>
          domainError(
            'assistant.attachment_too_large',
            'too_large',
            `a picture is at most ${maxBytes} bytes`,
            { maxBytes },
          ),
        malformed: (message) => invalid('assistant.attachment_upload_malformed', message),
      }),
    );
    const back = (fields: Record<string, string>, extra: string[]) => {
      const q = new URLSearchParams();
      for (const id of [...(fields.attached ?? '').split(',').filter(isUuid), ...extra])
        q.append('attach', id);
      return `${isUuid(fields.threadId) ? `/assistant/threads/${fields.threadId}` : '/assistant'}?${q.toString()}`;
    };
    if (!form.ok)
      return sendStudioPage(
        res,
        signedIn,
        {
          title: 'Picture not attached',
          current: '/assistant',
          body: html`${problemNotice(form.error)}
            <p><a href="/assistant">Back</a></p>`,
        },
        statusOfError(form.error),
      );
    req.body = form.value.fields;
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const added = await attempt(() =>
      run(addAttachment, { content: form.value.file.toString('base64') }, person),
    );
    if (!added.ok)
      return sendStudioPage(
        res,
        person,
        {
          title: 'Picture not attached',
          current: '/assistant',
          body: html`${problemNotice(added.error)}
            <p><a href="${back(form.value.fields, [])}">Back</a></p>`,
        },
        statusOfError(added.error),
      );
    res.redirect(303, `${back(form.value.fields, [added.value.attachmentId])}&notice=attached`);
  });

  // Confirm or cancel a plan: all its pending steps, or the ones ticked.
  r.post('/assistant/plans/decide', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const body = req.body as FormBody;
    const threadId = str(body, 'threadId');
    if (!isUuid(threadId)) return res.redirect(303, '/assistant');
    const chosen = body.steps;
    const steps = (Array.isArray(chosen) ? chosen : chosen ? [chosen] : [])
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
    const decision = str(body, 'decision') === 'cancel' ? 'cancel' : 'confirm';
    const done = await attempt(() =>
      run(
        decideActions,
        {
          threadId,
          messageId: str(body, 'messageId'),
          decision,
          planHash: str(body, 'planHash'),
          ...(steps.length && { steps }),
        },
        person,
      ),
    );
    if (!done.ok) return threadPage(req, res, person, threadId, done.error);
    const notice = decision === 'cancel' ? 'cancelled' : done.value.resumed ? 'resumed' : 'confirmed';
    res.redirect(303, `/assistant/threads/${threadId}?notice=${notice}#plan-${done.value.planId}`);
  });

  r.post('/assistant/threads/:threadId/delete', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const threadId = req.params.threadId;
    const done = await attempt(() => run(deleteThread, { threadId }, person));
    if (!done.ok && isUuid(threadId)) return threadPage(req, res, person, threadId, done.error);
    redirectWithNotice(res, '/assistant', 'deleted');
  });

  // ---------------------------------------------------------------- the vault
  r.get('/assistant/vault', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const owners = await ownersOf(ctx, person);
    const vault = await attempt(() => run(readVault, target(as), person));
    const download = `/api/autobot/vault/download${as ? `?targetAgentId=${as}` : ''}`;
    const body = html`${section('vault', as)}
      <form class="owner-chooser cluster" method="get" action="/assistant/vault">
        <label for="vault-as">Whose vault</label>
        <select id="vault-as" name="as">
          ${owners.map((o) => html`<option value="${o.self ? '' : o.agentId}" ${(o.self ? !as : as === o.agentId) ? raw(' selected') : ''}>${o.name}${o.self ? ' (you)' : ''}</option>`)}
        </select>
        <button type="submit" class="btn">Show</button>
      </form>
      ${
        vault.ok
          ? html`<p class="cluster">
                <span class="small muted"
                  >${vault.value.entries}
                  entries${vault.value.lastPosition ? html` · up to log position ${String(vault.value.lastPosition)}` : ''}</span
                >
                ${linkButton(download, 'Download (Markdown)')}
              </p>
              ${vault.value.markdown.trim() ? html`<article class="vault card" data-vault aria-label="Vault document">${pageMarkdown(vault.value.markdown, { headingOffset: 1 })}</article>` : emptyState('Nothing yet: each step of a plan you confirm is written here once it has run.')}`
          : problemNotice(vault.error)
      }`;
    sendStudioPage(res, person, {
      title: 'Vault',
      current: '/assistant',
      body,
      lede: 'What the assistant did for this agent, step by step, derived from the log.',
    });
  });

  // ---------------------------------------------------------------- settings
  async function settingsPage(req: Request, res: Response, person: PagePerson, error?: DomainError) {
    const [settings, status, owners, models, actsAs, did] = await Promise.all([
      run(readAssistantSettingsOperation, {}, person),
      run(readAssistantStatus, {}, person),
      ownersOf(ctx, person),
      attempt(() => run(listAccountModels, {}, person)),
      run(readAssistantCredential, {}, person),
      run(listAssistantProvenance, { limit: 20 }, person),
    ]);
    const nameOf = (id: string | null) =>
      id === null ? '—' : (owners.find((o) => o.agentId === id)?.name ?? id.slice(0, 8));
    const offered = models.ok ? models.value.models.map((m) => m.id) : [];
    const body = html`${noticeOf(req)}${section('settings')}${error ? problemNotice(error) : ''}
    ${card(
      'Status',
      keyValues([
        [
          'Thinks with',
          status.turn.route === 'account'
            ? 'your connected account'
            : status.turn.route === 'configured'
              ? 'this instance’s model'
              : 'the built-in planner',
        ],
        ['Model', status.turn.model ?? '—'],
        ['Model reachable', status.model.reachable === null ? '—' : status.model.reachable ? 'yes' : 'no'],
        ['Connected account', status.connectedAccount.state.replace(/_/g, ' ')],
        ['MCP endpoint', html`<code>${status.mcpEndpoint}</code>`],
        [
          'Acts as',
          html`<span data-field="acts-as">${actsAs.name}</span
            >${actsAs.handle ? html` <span class="muted">@${actsAs.handle}</span>` : ''}
            <span class="small muted"
              >(${actsAs.chosenBy === 'defaultPersonaId' ? 'your default identity' : actsAs.chosenBy === 'self' ? 'you' : 'the agent named'};
              ${actsAs.credential.kind}, ${String(actsAs.scopes.length)} scopes)</span
            >`,
        ],
      ]),
      { id: 'status' },
    )}
    ${card(
      'What the assistant did',
      html`<p class="small muted">
          From the provenance log: the steps of plans you confirmed and the reads the assistant ran without
          asking, newest first (the latest 20).
        </p>
        ${table({
          caption: 'What the assistant did, newest first',
          head: ['When', 'What', 'As', 'Outcome', 'How'],
          // Five columns do not fit a phone: there each entry is a card of labelled lines.
          stack: true,
          empty: 'Nothing yet.',
          rows: did.entries.map((e) => [
            when(e.at, 'never', { ago: true }),
            html`<span data-did-words>${e.words}</span><br /><code class="small muted">${e.tool}</code>`,
            nameOf(e.actorId),
            e.outcome === 'ok'
              ? badge('done', 'ok')
              : html`${badge('did not work', 'danger')}${e.errorCode ? html`<span class="small">${stepErrorWords(e.errorCode).slice(1)}</span> <small class="code" data-error-code="${e.errorCode}">${e.errorCode}</small>` : ''}`,
            e.plan ? html`step ${String(e.plan.step)} of a plan you confirmed` : 'a read, run without asking',
          ]),
        })}`,
      { id: 'provenance' },
    )}
    ${card(
      'Settings',
      html`<form method="post" action="/assistant/settings" class="stack">
        ${csrfField(person.csrf)}
        ${
          offered.length
            ? selectField({
                name: 'model',
                label: 'Model',
                value: settings.model ?? '',
                options: [['', 'The default'], ...offered.map((m) => [m, m] as const)],
                hint: 'The models your connected account offers.',
              })
            : field({
                name: 'model',
                label: 'Model',
                value: settings.model ?? '',
                hint: 'Empty: the instance’s default model.',
                maxlength: 200,
              })
        }
        ${selectField({ name: 'defaultPersonaId', label: 'Plans act as', value: settings.defaultPersonaId ?? '', options: owners.map((o) => [o.self ? '' : o.agentId, o.self ? `${o.name} (you)` : o.name] as const) })}
        ${checkboxes({
          name: 'readAreas',
          legend: 'What the assistant may read without asking',
          hint: 'Reading changes nothing, and what it reads is treated as information, never as instructions. Anything that changes something always waits for your confirmation. Untick an area to be asked first.',
          items: READ_AREAS.map((area) => ({
            value: area,
            label: READ_AREA_WORDS[area].label,
            note: READ_AREA_WORDS[area].note,
            checked: settings.readAreas.includes(area),
          })),
        })}
        <input type="hidden" name="readAreasShown" value="1" />
        ${settings.autoRunReadTools.length ? html`<p class="small muted">Also read without asking, named one by one: ${settings.autoRunReadTools.join(', ')}.</p>` : ''}
        <label class="check"
          ><input type="checkbox" name="vault" value="on" ${settings.vault ? raw(' checked') : ''} />
          <span>Write what each confirmed step did to the vault</span></label
        >
        <input type="hidden" name="vaultShown" value="1" />
        <div class="actions">${button('Save settings', { kind: 'primary' })}</div>
      </form>`,
      { id: 'settings' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: 'Assistant settings', current: '/assistant', body },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/assistant/settings', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await settingsPage(req, res, person);
  });

  r.post('/assistant/settings', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const body = req.body as FormBody;
    const areas = body.readAreas;
    const chosen = (Array.isArray(areas) ? areas : areas ? [areas] : []).filter((a): a is ReadArea =>
      (READ_AREAS as readonly string[]).includes(a),
    );
    const model = str(body, 'model').trim();
    const persona = str(body, 'defaultPersonaId');
    const done = await attempt(() =>
      run(
        updateAssistantSettings,
        {
          model: model || null,
          defaultPersonaId: isUuid(persona) ? persona : null,
          ...(str(body, 'readAreasShown') === '1' && { readAreas: chosen }),
          vault: str(body, 'vault') === 'on',
        },
        person,
      ),
    );
    if (!done.ok) return settingsPage(req, res, person, done.error);
    redirectWithNotice(res, '/assistant/settings', 'settings');
  });

  // ---------------------------------------------------------------- the connected account
  interface SignIn {
    signInId: string;
    userCode: string;
    verificationUri: string;
    verificationUriComplete: string | null;
    intervalSeconds: number;
    expiresAt: string;
  }
  async function accountPage(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { error?: DomainError; signIn?: SignIn; pollStatus?: string } = {},
  ) {
    const as = actingAs(req);
    const [account, models] = await Promise.all([
      attempt(() => run(readAccount, target(as), person)),
      attempt(() => run(listAccountModels, target(as), person)),
    ]);
    const a = account.ok ? account.value : null;
    const signIn = o.signIn;
    const body = html`${noticeOf(req)}${section('account', as)}${o.error ? problemNotice(o.error) : ''}
    ${!account.ok ? problemNotice(account.error) : ''}
    ${a && !a.provider ? notice('info', html`<p>The operators of this instance have not configured an external assistant provider, so there is no account to connect.</p>`) : ''}
    ${
      a?.connected && a.account
        ? card(
            'Connected',
            html`${keyValues([
                ['Provider', a.account.provider],
                ['Account', a.account.accountLabel ?? '—'],
                ['Scopes', a.account.scopes.join(' ') || '—'],
                ['Connected', when(a.account.connectedAt)],
                ['Refreshed', when(a.account.refreshedAt)],
              ])}
              <h3>Models it offers</h3>
              ${
                models.ok
                  ? models.value.models.length
                    ? html`<ul class="plain">
                          ${models.value.models.map((m) => html`<li><code>${m.id}</code></li>`)}
                        </ul>
                        <p class="small"><a href="/assistant/settings">Choose one in the settings</a>.</p>`
                    : emptyState('It offers no models.')
                  : problemNotice(models.error)
              }
              ${postButton({ action: '/assistant/account/disconnect', csrf: person.csrf, label: 'Disconnect', kind: 'danger', fields: as ? { as } : {}, confirm: 'Disconnect this account? Its grant is revoked at the provider.' })}`,
            { id: 'connected' },
          )
        : ''
    }
    ${
      signIn
        ? card(
            'Sign in at the provider',
            html`<div
              class="device-code"
              data-sign-in="${signIn.signInId}"
              data-interval="${String(signIn.intervalSeconds)}"
            >
              <p>
                Open
                <a
                  href="${signIn.verificationUriComplete ?? signIn.verificationUri}"
                  target="_blank"
                  rel="noopener"
                  >${signIn.verificationUri}</a
                >, sign in there and enter this code:
              </p>
              <p class="user-code" data-field="user-code">${signIn.userCode}</p>
              <p class="small muted">The code works until ${when(signIn.expiresAt)}.</p>
              ${o.pollStatus ? notice('info', html`<p data-poll-status>${o.pollStatus}</p>`) : html`<p data-poll-status class="small" aria-live="polite"></p>`}
              <form method="post" action="/assistant/account/poll">
                ${csrfField(person.csrf)}${asField(as)}
                <input type="hidden" name="signInId" value="${signIn.signInId}" />
                ${['userCode', 'verificationUri', 'intervalSeconds', 'expiresAt'].map((k) => html`<input type="hidden" name="${k}" value="${String(signIn[k as keyof SignIn] ?? '')}" />`)}
                ${button('I have approved it — check', { kind: 'primary' })}
              </form>
            </div>`,
            { id: 'sign-in' },
          )
        : a?.provider && !a.connected
          ? card(
              'Connect an account',
              html`<p>
                  Use your own account at <strong>${a.provider}</strong> for the assistant's thinking. You
                  sign in there, in your own browser; this instance keeps the tokens encrypted and never shows
                  them.
                </p>
                ${postButton({ action: '/assistant/account/sign-in', csrf: person.csrf, label: 'Start signing in', kind: 'primary', fields: as ? { as } : {} })}`,
              { id: 'connect' },
            )
          : ''
    }`;
    sendStudioPage(
      res,
      person,
      { title: 'Connected account', current: '/assistant', body, scripts: ['studio-assistant.js'] },
      o.error ? statusOfError(o.error) : 200,
    );
  }

  r.get('/assistant/account', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await accountPage(req, res, person);
  });

  r.post('/assistant/account/sign-in', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const started = await attempt(() => run(startAccountSignIn, target(actingAs(req)), person));
    if (!started.ok) return accountPage(req, res, person, { error: started.error });
    await accountPage(req, res, person, { signIn: started.value });
  });

  r.post('/assistant/account/poll', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const signIn: SignIn = {
      signInId: str(body, 'signInId'),
      userCode: str(body, 'userCode'),
      verificationUri: /^https?:\/\//.test(str(body, 'verificationUri')) ? str(body, 'verificationUri') : '#',
      verificationUriComplete: null,
      intervalSeconds: Number(str(body, 'intervalSeconds')) || 5,
      expiresAt: str(body, 'expiresAt'),
    };
    const polled = await attempt(() =>
      run(pollAccountSignIn, { ...target(as), signInId: signIn.signInId }, person),
    );
    if (!polled.ok) return accountPage(req, res, person, { error: polled.error });
    if (polled.value.status === 'connected') return res.redirect(303, href('/assistant/account', as));
    await accountPage(req, res, person, {
      signIn,
      pollStatus:
        polled.value.status === 'slow_down'
          ? 'Not approved yet; the provider asks to check less often.'
          : 'Not approved yet. Approve it at the provider, then check again.',
    });
  });

  r.post('/assistant/account/disconnect', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const done = await attempt(() => run(disconnectAccount, target(as), person));
    if (!done.ok) return accountPage(req, res, person, { error: done.error });
    redirectWithNotice(res, href('/assistant/account', as), 'disconnected');
  });

  return r;
}

function attachedOf(req: Request): string[] {
  const v = req.query.attach;
  return (Array.isArray(v) ? v : v ? [v] : []).filter(isUuid).slice(0, 4);
}

/** One message of the conversation, with its plan card. */
function messageView(
  m: Message,
  person: PagePerson,
  threadId: string,
  nameOf: (agentId: string) => string,
): Html {
  if (m.role === 'person')
    return html`<li class="message message-person" id="m-${m.messageId}">
      <p class="small muted">You · ${when(m.addedAt)}</p>
      <div class="message-text">${m.text}</div>
      ${m.attachmentIds.length ? html`<p class="small muted">${m.attachmentIds.length} picture${m.attachmentIds.length === 1 ? '' : 's'} attached</p>` : ''}
    </li>`;
  // Who is speaking: the model's words, then Tributary's own statements, each labelled and set apart.
  const speaker = m.model === BUILTIN_PLANNER_MODEL ? 'Assistant (the built-in planner)' : 'Assistant';
  return html`<li class="message message-assistant" id="m-${m.messageId}">
    ${
      m.text
        ? html`<div class="said">
            <p class="small muted">
              ${speaker} ·
              ${when(m.addedAt)}${m.model && m.model !== BUILTIN_PLANNER_MODEL ? html` · ${m.model}` : ''}
            </p>
            <div class="message-text" data-said>${m.text}</div>
          </div>`
        : ''
    }
    ${m.notes.length ? tributaryNotes(m) : ''} ${m.plan ? planCard(m, m.plan, person, threadId, nameOf) : ''}
  </li>`;
}

/** Tributary's own statements about a turn: never the model's words. */
function tributaryNotes(m: Message): Html {
  return html`<div class="tributary-notes" data-notes>
    <p class="small">
      <strong>From Tributary</strong> <span class="muted">(not the assistant’s words)</span>
    </p>
    <ul class="plain">
      ${m.notes.map((n) => html`<li class="note note-${n.kind}" data-note="${n.kind}">${n.text}</li>`)}
    </ul>
    ${
      m.declined.length
        ? html`<details class="small">
            <summary>Codes of what was not done</summary>
            <ul>
              ${m.declined.map((d) => html`<li><code>${d.tool}</code>: <code>${d.code}</code></li>`)}
            </ul>
          </details>`
        : ''
    }
  </div>`;
}

/**
 * A step's sentence with the values that came from outside content highlighted where they appear, and
 * where they came from said in words.
 */
function stepWords(step: NonNullable<Message['plan']>['steps'][number]): Html {
  let pieces: { text: string; source?: string; path?: string }[] = [{ text: step.title }];
  for (const u of step.untrusted) {
    const value = valueAt(step.args, u.path);
    if (typeof value !== 'string' || value.trim().length === 0) continue;
    pieces = pieces.flatMap((p) => {
      const at = p.source ? -1 : p.text.indexOf(value);
      if (at < 0) return [p];
      return [
        { text: p.text.slice(0, at) },
        { text: value, source: u.source, path: u.path },
        { text: p.text.slice(at + value.length) },
      ];
    });
  }
  return html`${pieces.map((p) => {
    if (!p.source) return p.text;
    const from = SOURCE_NAMES[p.source] ?? p.source;
    return html`<mark class="untrusted" title="from ${from}" data-untrusted="${p.path ?? ''}"
      >${p.text}<span class="visually-hidden"> (from ${from})</span></mark
    >`;
  })}`;
}

function planCard(
  m: Message,
  plan: NonNullable<Message['plan']>,
  person: PagePerson,
  threadId: string,
  nameOf: (agentId: string) => string,
): Html {
  const [label, kind] = PLAN_STATUS[plan.status] ?? [plan.status, 'neutral'];
  const open = plan.status === 'proposed' || plan.status === 'confirmed';
  const pending = plan.steps.filter((s) => s.status === 'pending');
  const formId = `plan-form-${plan.planId}`;
  const done = plan.reply;
  const live = done?.links.filter((l) => l.live) ?? [];
  const others = done?.links.filter((l) => !l.live) ?? [];
  return html`<article
    class="plan card"
    id="plan-${plan.planId}"
    aria-labelledby="plan-h-${plan.planId}"
    data-plan="${plan.planId}"
  >
    <h3 id="plan-h-${plan.planId}">
      Plan: ${plan.steps.length} step${plan.steps.length === 1 ? '' : 's'} ${badge(label, kind)}
    </h3>
    <p class="small muted">
      Acts as
      <strong>${nameOf(plan.actingAgentId)}</strong
      >${plan.status === 'proposed' ? html` · waits until ${when(plan.expiresAt)}` : ''}${plan.confirmedAt ? html` · confirmed ${when(plan.confirmedAt)}` : ''}
    </p>
    <ol class="steps plain stack">
      ${plan.steps.map((s) => {
        const [stepLabel, stepKind] = STEP_STATUS[s.status] ?? [s.status, 'neutral'];
        const choosable = open && s.status === 'pending' && pending.length > 1;
        const id = `${formId}-s${String(s.step)}`;
        return html`<li class="step" data-step="${String(s.step)}" data-status="${s.status}">
          <div class="step-head">
            <strong class="step-words" data-step-words>${String(s.step)}. ${stepWords(s)}</strong>
            ${badge(stepLabel, stepKind)}
            ${s.writes ? badge('changes something', 'warn') : badge('only reads')}
          </div>
          ${choosable ? html`<label class="check step-choose" for="${id}"><input type="checkbox" name="steps" value="${String(s.step)}" form="${formId}" id="${id}" /><span>Choose step ${String(s.step)} only</span></label>` : ''}
          ${s.untrusted.length ? untrustedNote(s) : ''}
          ${s.errorCode ? html`<p class="small">It did not work${stepErrorWords(s.errorCode)} <small class="code" data-error-code="${s.errorCode}">${s.errorCode}</small></p>` : ''}
          <details
            class="step-details small"
            ${s.untrusted.length && s.status === 'pending' && !marksInWords(s) ? 'open' : ''}
          >
            <summary>Details<span class="visually-hidden"> of step ${String(s.step)}</span></summary>
            <p class="muted">Tool <code>${s.tool}</code>, with these arguments exactly as they run:</p>
            ${argsWithMarks(s.args, s.untrusted)}
            ${s.summary ? html`<p class="muted">Recorded: ${s.summary}</p>` : ''}
            ${s.events.length ? html`<p class="muted">${s.events.length} event${s.events.length === 1 ? '' : 's'}: ${s.events.map((e) => e.type).join(', ')}</p>` : ''}
          </details>
        </li>`;
      })}
    </ol>
    <details class="small plan-details">
      <summary>Plan details</summary>
      <p class="muted">Hash <code>${plan.hash}</code>: what you confirm is exactly this plan.</p>
    </details>
    ${
      done
        ? html`<div class="done-reply tributary-notes" data-done>
            <p class="small"><strong>From Tributary</strong> <span class="muted">(what ran)</span></p>
            <p class="done-head">${done.text.split('\n')[0]}</p>
            <ul class="plain">
              ${done.lines.map((l) => html`<li data-outcome="${l.status}">${l.text}</li>`)}
            </ul>
            ${live.map((l) => html`<p class="done-live" data-live-link>${linkButton(l.href, l.label, 'primary')} <span class="small muted">${l.href}</span></p>`)}
            ${others.length ? html`<p class="cluster done-links">${others.map((l) => html`<a href="${l.href}">${l.label}</a>`)}</p>` : ''}
          </div>`
        : ''
    }
    ${
      open && pending.length
        ? html`<form
            method="post"
            action="/assistant/plans/decide"
            id="${formId}"
            class="cluster plan-actions"
            data-plan-form
          >
            ${csrfField(person.csrf)} <input type="hidden" name="threadId" value="${threadId}" /><input
              type="hidden"
              name="messageId"
              value="${m.messageId}"
            /><input type="hidden" name="planHash" value="${plan.hash}" />
            ${button(pending.length > 1 ? 'Confirm all' : 'Confirm', { kind: 'primary', name: 'decision', value: 'confirm' })}
            ${button(pending.length > 1 ? 'Cancel all' : 'Cancel', { name: 'decision', value: 'cancel' })}
            ${pending.length > 1 ? html`<span class="small muted">Choose steps to confirm or cancel only those.</span>` : ''}
            <p class="small" data-progress aria-live="polite"></p>
          </form>`
        : ''
    }
  </article>`;
}

type Step = NonNullable<Message['plan']>['steps'][number];

/** Why a step did not work, in words when its code has them (": That address is taken…"), else a full stop. */
function stepErrorWords(code: string): string {
  // Only words that stand without the refusal's message (the step keeps its code, not the message).
  const page = PAGE_ERROR_WORDS[code];
  const words = typeof page === 'string' ? page : undefined;
  return words ? `: ${words}` : '.';
}

/** Whether a value from outside content shows (highlighted) in the step's sentence itself. */
const marksInWords = (step: Step) =>
  step.untrusted.some((u) => {
    const value = valueAt(step.args, u.path);
    return typeof value === 'string' && value.trim().length > 0 && step.title.includes(value);
  });

/**
 * Where a step's outside values are, and what to do about them: highlighted in its sentence, or — when
 * the sentence shows none of them — in its details (opened while the step waits, so they are seen).
 */
function untrustedNote(step: Step): Html {
  const from = [...new Set(step.untrusted.map((u) => SOURCE_NAMES[u.source] ?? u.source))].join(', ');
  const check = step.status === 'pending' ? ': check them before confirming' : '';
  return html`<p class="small untrusted-note">
    ${
      marksInWords(step)
        ? html`<mark>Highlighted values</mark> came from outside content (${from}), not from your
            message${check}.`
        : html`Some values in its details (<mark>highlighted</mark> there) came from outside content
            (${from}), not from your message${check}.`
    }
  </p>`;
}

/** The value a JSON Pointer names in the arguments. */
function valueAt(args: unknown, pointer: string): unknown {
  let v: unknown = args;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
