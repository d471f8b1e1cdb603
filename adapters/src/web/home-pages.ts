// The signed-in person's home: who they are, their personas (create, rename, delete), what their
// agents did recently (the provenance log of tool calls and the signed events of their agents), and
// links to everything else. Every read and write runs a catalogue operation as the session.
import { isDomainError, type DomainError } from '@tributary/domain';
import {
  auditRecent,
  createPersona,
  deletePersona,
  listPersonas,
  readMyEvents,
  sendVerificationEmail,
  updateProfile,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, STATUS_OF_KIND, type HttpContext } from '../http/index.js';
import {
  badge,
  button,
  card,
  emptyState,
  field,
  keyValues,
  linkButton,
  notice,
  problemNotice,
  table,
  when,
  csrfField,
} from './components.js';
import { eventActor, eventArea, EVENT_AREAS, eventSentence, foldMailSteps } from './event-words.js';
import { html, type Html } from './html.js';
import {
  fieldErrors,
  formText,
  pageErrors,
  pageFormBody,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  sendPersonPage,
  type PagePerson,
} from './page-session.js';

/** How many provenance entries and events the home page shows. */
const RECENT = 10;

const NOTICES: Record<string, string> = {
  'persona-created': 'Persona created.',
  'persona-renamed': 'Persona renamed.',
  'persona-deleted': 'Persona deleted. Its events stay in the log and its handle stays reserved.',
  'verification-sent':
    'We sent a verification link to your email address. Open it to confirm the address; it works once, for a limited time.',
  'already-verified': 'Your email address is already verified.',
  // Without SMTP_URL nothing is mailed: say so, and where the message went (docs/mail.md#outbox).
  'verification-logged':
    'This instance has no mail server, so no email was sent. Its operator can read the message, with your verification link, in the outbox.',
};
/** The person's latest signed events: one bounded read, newest first (svc.log.read_mine, order newest). */
async function latestEvents(ctx: HttpContext, person: PagePerson) {
  const { result } = await runOperation(
    ctx,
    readMyEvents,
    { order: 'newest', limit: RECENT },
    person.principal,
  );
  return result.events as {
    sequence: number;
    event: {
      type: string;
      occurredAt: string;
      actorId: string;
      stream: string;
      data: Record<string, unknown>;
    };
  }[];
}

export function homePages(ctx: HttpContext): Router {
  const r = Router();
  const body = pageFormBody(ctx);

  async function home(
    req: Request,
    res: Response,
    person: PagePerson,
    o: { status?: number; error?: DomainError; createValues?: Record<string, string> } = {},
  ) {
    const p = person.principal;
    const [me, account, personas, provenance, events] = await Promise.all([
      ctx.services.agents.read.agent(p.agentId),
      ctx.services.accounts.read.accountById(p.accountId),
      runOperation(ctx, listPersonas, {}, p).then((x) => x.result.personas),
      runOperation(ctx, auditRecent, { limit: RECENT }, p).then((x) => x.result.entries),
      latestEvents(ctx, person).then(foldMailSteps),
    ]);
    const names = new Map<string, string>([
      [p.agentId, me?.name ?? 'you'],
      ...personas.map((x) => [x.agentId, x.name] as [string, string]),
    ]);
    const nameOf = (id: string | null) => (id ? (names.get(id) ?? id.slice(0, 8)) : '—');
    // In the events, the person is "you"; an agent they do not own is "someone else".
    const actorName = (id: string) => (id === p.agentId ? 'you' : (names.get(id) ?? 'someone else'));
    const key = typeof req.query.notice === 'string' ? req.query.notice : '';
    const createErrors = o.error?.code === 'input.invalid' && o.createValues ? fieldErrors(o.error) : {};
    const v = o.createValues ?? {};
    const personaRows = personas.map((x) => [
      html`<strong>${x.name}</strong
        >${x.handle ? html`<br /><span class="small muted">@${x.handle}</span>` : ''}`,
      when(x.createdAt),
      html`<details>
          <summary>Rename<span class="visually-hidden"> ${x.name}</span></summary>
          <form method="post" action="/home/personas/rename">
            ${csrfField(person.csrf)}<input type="hidden" name="agentId" value="${x.agentId}" />
            ${field({ name: 'name', label: `New name for ${x.name}`, value: x.name, required: true, maxlength: 100 })}
            ${button('Save name', { kind: 'primary' })}
          </form>
        </details>
        <details>
          <summary>Delete<span class="visually-hidden"> ${x.name}</span></summary>
          <form method="post" action="/home/personas/delete">
            ${csrfField(person.csrf)}<input type="hidden" name="agentId" value="${x.agentId}" />
            <p class="small">Deleting is permanent. Its events stay in the log; its handle stays reserved.</p>
            ${field({ name: 'password', label: 'Your password, to confirm', type: 'password', autocomplete: 'current-password', required: true })}
            ${button(html`Delete ${x.name}`, { kind: 'danger' })}
          </form>
        </details>`,
    ]);
    const body: Html = html` ${
        key === 'verification-logged'
          ? notice(
              'warning',
              html`<p>${NOTICES[key]}</p>
                ${person.isOperator ? html`<p><a href="/operator/outbox">Open the outbox</a> — you are its operator.</p>` : ''}`,
            )
          : key === 'handle-lowercased' && account?.handle
            ? notice(
                'info',
                html`<p>
                  Welcome! Handles are in lowercase, so yours is <strong>@${account.handle}</strong>: sign in
                  with it.
                </p>`,
              )
            : NOTICES[key]
              ? notice('success', html`<p>${NOTICES[key]}</p>`)
              : ''
      }
      ${o.error && !o.createValues ? problemNotice(o.error) : ''}
      <div class="grid">
        ${card(
          'Who you are',
          html`${keyValues([
              ['Name', me?.name ?? '—'],
              ['Handle', account?.handle ? `@${account.handle}` : '—'],
              [
                'Email',
                account?.email
                  ? html`${account.email}
                    ${account.emailVerifiedAt ? badge('verified', 'ok') : badge('not verified', 'warn')}
                    ${
                      account.emailVerifiedAt
                        ? ''
                        : html`<form method="post" action="/home/email/verification" class="inline">
                            ${csrfField(person.csrf)} ${button('Send a verification email', { kind: 'link' })}
                          </form>`
                    }`
                  : '—',
              ],
              ['Role', person.isOperator ? badge('operator', 'ok') : 'member'],
            ])}
            <details class="small">
              <summary>Technical details</summary>
              <p>Your agent id (what agents and the API call you): <code>${p.agentId}</code></p>
            </details>`,
          { id: 'me' },
        )}
        ${card(
          'Go to',
          html`<ul class="plain">
            <li>
              <a href="/builder">Builder</a>
              <span class="muted small">— make your website and publish it</span>
            </li>
            <li>
              <a href="/assistant">Assistant</a>
              <span class="muted small"
                >— ask for changes in plain words; nothing runs until you confirm</span
              >
            </li>
            <li>
              <a href="/access">Agent access</a>
              <span class="muted small">— tokens for your agents, connected apps</span>
            </li>
            <li>
              <a href="/mcp/apps">Connected apps</a>
              <span class="muted small">— OAuth apps acting for you</span>
            </li>
            ${person.isOperator ? html`<li><a href="/operator">Operator</a> <span class="muted small">— peers, federation, the log</span></li>` : ''}
            <li>
              <a href="/docs/guide">Guide</a>
              <span class="muted small">— what you can do here, step by step</span>
            </li>
          </ul>`,
          { id: 'links' },
        )}
      </div>
      ${card(
        'Personas',
        html`<p class="muted">
            Personas are agents you own: each has its own name and handle, and tokens can be bound to one.
          </p>
          ${table({ caption: 'Your personas', head: ['Persona', 'Created', 'Change'], rows: personaRows, empty: 'No personas yet. Create one below.' })}
          <h3 id="new-persona">New persona</h3>
          ${o.error && o.createValues && o.error.code !== 'input.invalid' ? problemNotice(o.error, 'Could not create the persona.') : ''}
          <form method="post" action="/home/personas" aria-labelledby="new-persona">
            ${csrfField(person.csrf)}
            ${field({ name: 'name', label: 'Name', value: v.name, required: true, maxlength: 100, error: createErrors.name })}
            ${field({ name: 'handle', label: 'Handle (optional)', value: v.handle, hint: '3–30 characters: a–z, 0–9 and _, starting with a letter; unique on this instance.', error: createErrors.handle })}
            <div class="actions">${button('Create persona', { kind: 'primary' })}</div>
          </form>`,
        { id: 'personas' },
      )}
      ${card(
        'Recent tool calls',
        html`<p class="muted">
            From the provenance log: every call your agents made over MCP, allowed or refused.
          </p>
          ${table({
            caption: 'Recent tool calls',
            head: ['When', 'Tool', 'As', 'Outcome'],
            rows: provenance.map((e) => [
              when(e.at),
              html`<code>${e.tool}</code>`,
              nameOf(e.actorId),
              e.outcome === 'ok' ? badge('ok', 'ok') : badge(e.errorCode ?? e.outcome, 'danger'),
            ]),
            empty: html`No tool calls yet. <a href="/access">Give an agent a token</a> to start.`,
          })}`,
        { id: 'provenance' },
      )}
      ${card(
        'Recent events',
        html`<p class="muted">
            The latest signed events written for you and your personas, newest first, by what they concern.
          </p>
          ${
            events.length
              ? [...EVENT_AREAS, ['other', 'Other', []] as const]
                  .map(
                    ([id, title]) =>
                      [id, title, events.filter((e) => eventArea(e.event.type) === id)] as const,
                  )
                  .filter(([, , list]) => list.length)
                  .map(
                    ([id, title, list]) =>
                      html`<h3 id="events-${id}">${title}</h3>
                        ${table({
                          caption: `Recent events: ${title}`,
                          head: ['What happened', 'By'],
                          // Two columns, the time under the sentence: it reads on a phone without scrolling.
                          rows: list.map((e) => [
                            html`${eventSentence(e.event, { you: p.agentId })}<br /><span class="small muted"
                                >${when(e.event.occurredAt)} ·
                                <code data-event-type data-sequence="${String(e.sequence)}"
                                  >${e.event.type}</code
                                ></span
                              >`,
                            eventActor(e.event, { since: account?.createdAt ?? null, nameOf: actorName }),
                          ]),
                        })}`,
                  )
              : emptyState('Nothing yet.')
          }`,
        { id: 'events' },
      )}
      <p>${linkButton('/access', 'Manage agent access', 'primary')}</p>`;
    sendPersonPage(
      res,
      person,
      { title: `Welcome, ${me?.name ?? 'there'}`, current: '/home', body },
      o.status ?? 200,
    );
  }

  r.get('/home', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await home(req, res, person);
  });

  r.post('/home/personas', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const name = formText(req, 'name').trim();
    const handle = formText(req, 'handle').trim();
    try {
      await runOperation(ctx, createPersona, { name, ...(handle && { handle }) }, person.principal);
      redirectWithNotice(res, '/home', 'persona-created');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return home(req, res, person, {
        status: e.kind === 'conflict' ? 409 : 400,
        error: e,
        createValues: { name, handle },
      });
    }
  });

  r.post('/home/email/verification', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    try {
      const { result } = await runOperation(ctx, sendVerificationEmail, {}, person.principal);
      redirectWithNotice(
        res,
        '/home',
        result.alreadyVerified
          ? 'already-verified'
          : ctx.services.mail?.transport.mode === 'log'
            ? 'verification-logged'
            : 'verification-sent',
      );
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return home(req, res, person, { status: STATUS_OF_KIND[e.kind] ?? 400, error: e });
    }
  });

  r.post('/home/personas/rename', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(
        ctx,
        updateProfile,
        { targetAgentId: formText(req, 'agentId'), name: formText(req, 'name').trim() },
        person.principal,
      );
      redirectWithNotice(res, '/home', 'persona-renamed');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return home(req, res, person, { status: 400, error: e });
    }
  });

  r.post('/home/personas/delete', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    try {
      await runOperation(
        ctx,
        deletePersona,
        { targetAgentId: formText(req, 'agentId'), password: formText(req, 'password') },
        person.principal,
      );
      redirectWithNotice(res, '/home', 'persona-deleted');
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return home(req, res, person, { status: e.kind === 'unauthenticated' ? 401 : 400, error: e });
    }
  });
  r.use(pageErrors(ctx));
  return r;
}
