// The signed-in person's home: who they are, their other identities (personas in the API: create,
// rename, delete), what their
// agents did recently (the provenance log of tool calls and the signed events of their agents), and
// links to everything else. Every read and write runs a catalogue operation as the session.
import { isDomainError, type DomainError } from '@tributary/domain';
import {
  auditRecent,
  createPersona,
  deletePersona,
  listForms,
  listPersonas,
  listSites,
  readMyEvents,
  readSite,
  sendVerificationEmail,
  setTimeZone,
  updateProfile,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { runOperation, STATUS_OF_KIND, type HttpContext } from '../http/index.js';
import { codeWords } from './error-words.js';
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
  selectField,
  table,
  when,
  csrfField,
  emailText,
  whenRange,
} from './components.js';
import { forgetZoneChosenHere, readerClock, zoneChoices } from './reader-zone.js';
import {
  eventActor,
  eventArea,
  EVENT_AREAS,
  eventLines,
  foldMailSteps,
  lineSentence,
} from './event-words.js';
import { stateBadge, type PublicationState } from './builder/builder-pieces.js';
import {
  allNewMessages,
  messagesHref,
  messagesWords,
  newMessagesBySite,
  newMessagesLink,
} from './builder/new-messages.js';
import { href } from './builder/studio-support.js';
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
  'persona-created': 'Identity created.',
  'persona-renamed': 'Identity renamed.',
  'persona-deleted': 'Identity deleted. What it did stays in the history, and its handle stays reserved.',
  'verification-sent':
    'We sent a verification link to your email address. Open it to confirm the address; it works once, for a limited time.',
  'already-verified': 'Your email address is already verified.',
  'zone-chosen': 'Times are now shown in the time zone you chose, on every device you sign in on.',
  'zone-browser': 'Times now follow the time zone of the browser you use.',
  // Without SMTP_URL nothing is mailed: say so, and where the message went (docs/mail.md#outbox).
  'verification-logged':
    'This instance has no mail server, so no email was sent. Its operator can read the message, with your verification link, in the outbox.',
};
/** Which zone the page's times are in, and the form to choose another (kept on the account). */
function timeZoneSetting(person: PagePerson): Html {
  const clock = readerClock();
  const name = clock.zone.replace(/_/g, ' ');
  const now = !clock.known
    ? 'UTC: your browser has not told us its time zone'
    : clock.chosen === 'account'
      ? `${name}, as you chose`
      : clock.chosen === 'this_browser'
        ? `${name}, as you chose in this browser`
        : `${name}, your browser’s`;
  return html`<span data-field="time-zone">${now}</span>
    <details class="small">
      <summary>Change the time zone</summary>
      <form method="post" action="/home/time-zone">
        ${csrfField(person.csrf)}
        ${selectField({
          name: 'zone',
          label: 'Show times in',
          value: clock.chosen ? clock.zone : '',
          options: [
            ['', 'My browser’s time zone'],
            ...zoneChoices(clock.now).map((c) => [c.zone, c.label] as const),
          ],
          hint: 'Kept with your account, so every device you sign in on shows the same times. Without a choice, pages follow each browser’s own zone (UTC until it has told us, or without JavaScript).',
        })}
        ${button('Save time zone', { kind: 'primary' })}
      </form>
    </details>`;
}

/** How many events the home page reads to make its lines (consecutive ones of a kind become one). */
const EVENTS_READ = 100;
/** How many sites the home page shows; the builder lists them all. */
const HOME_SITES = 6;

/** The person's latest signed events: one bounded read, newest first (svc.log.read_mine, order newest). */
async function latestEvents(ctx: HttpContext, person: PagePerson) {
  const { result } = await runOperation(
    ctx,
    readMyEvents,
    { order: 'newest', limit: EVENTS_READ },
    person.principal,
  );
  return {
    events: result.events as {
      sequence: number;
      event: {
        type: string;
        occurredAt: string;
        actorId: string;
        stream: string;
        data: Record<string, unknown>;
      };
    }[],
    hasMore: result.hasMore,
  };
}

interface Owner {
  /** The persona acted for (the builder's `as`), or undefined for the person. */
  as: string | undefined;
  name: string;
}

/** An owner's sites (those that exist) and forms, read as the session acting for them. */
async function ownedBy(ctx: HttpContext, person: PagePerson, owner: Owner) {
  const target = owner.as ? { targetAgentId: owner.as } : {};
  const [sites, forms] = await Promise.all([
    runOperation(ctx, listSites, target, person.principal).then((x) =>
      x.result.sites.filter((s) => s.created).map((s) => ({ ...s, owner })),
    ),
    runOperation(ctx, listForms, target, person.principal).then((x) => x.result.forms),
  ]);
  return { owner, sites, forms };
}

type ListedSite = Awaited<ReturnType<typeof ownedBy>>['sites'][number];
async function withState(ctx: HttpContext, person: PagePerson, site: ListedSite) {
  const target = site.owner.as ? { targetAgentId: site.owner.as } : {};
  const state: PublicationState = await runOperation(
    ctx,
    readSite,
    { ...target, siteId: site.siteId, limit: 1 },
    person.principal,
  ).then(
    (x) => x.result.state,
    (e: unknown) => {
      if (!isDomainError(e)) throw e;
      return site.publishedVersionId ? 'live' : 'never_published';
    },
  );
  return { site, owner: site.owner, state };
}

/** A live URL without its scheme and trailing slash, as a person reads an address. */
const displayUrl = (url: string) => url.replace(/^https?:\/\//, '').replace(/\/$/, '');

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
    const [me, account, personas, provenance, read] = await Promise.all([
      ctx.services.agents.read.agent(p.agentId),
      ctx.services.accounts.read.accountById(p.accountId),
      runOperation(ctx, listPersonas, {}, p).then((x) => x.result.personas),
      runOperation(ctx, auditRecent, { limit: RECENT }, p).then((x) => x.result.entries),
      latestEvents(ctx, person),
    ]);
    // The sites and forms of the person and of each identity of theirs: what the top of the page is about.
    const owners = [
      { as: undefined, name: me?.name ?? 'you' },
      ...personas.map((x) => ({ as: x.agentId, name: x.name })),
    ];
    const owned = await Promise.all(owners.map((owner) => ownedBy(ctx, person, owner)));
    const sites = owned.flatMap((x) => x.sites);
    const shown = await Promise.all(sites.slice(0, HOME_SITES).map((s) => withState(ctx, person, s)));
    const forms = owned.flatMap((x) => x.forms.map((f) => ({ ...f, as: x.owner.as })));
    const unread = allNewMessages(forms);
    const bySite = newMessagesBySite(forms);
    const titles = new Map(sites.map((s) => [s.siteId, s.title]));
    const formNames = new Map(forms.map((f) => [f.formId, f.name]));
    const lines = eventLines(foldMailSteps(read.events), read.hasMore).slice(0, RECENT);
    // Why no mail about submissions came, when none can (docs/builder.md#submission-mail).
    const notSent =
      ctx.services.mail?.transport.mode !== 'smtp'
        ? 'this instance has no mail server set up.'
        : !account?.email
          ? 'your account has no email address.'
          : !account.emailVerifiedAt
            ? 'your email address is not verified yet (below).'
            : null;
    const submissionMail =
      forms.length === 0 || notSent === null
        ? ''
        : html`<strong>Email: not sent</strong> —
            ${notSent}${
              person.isOperator && ctx.services.mail?.transport.mode !== 'smtp'
                ? html` You run it: <a href="/docs/guide#mail">how to set up mail</a>.`
                : ''
            }`;
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
            <p class="small">
              Deleting is permanent. What it did stays in the history; its handle stays reserved.
            </p>
            ${field({ name: 'password', label: 'Your password, to confirm', type: 'password', autocomplete: 'current-password', required: true })}
            ${button(html`Delete ${x.name}`, { kind: 'danger' })}
          </form>
        </details>`,
    ]);
    const sitesCard = card(
      'Your sites',
      sites.length === 0
        ? html`<p data-field="no-sites">
              You have no website yet. Pick a template, change the words and pictures, and publish it when you
              are ready.
            </p>
            <p>${linkButton('/builder', 'Make your website', 'primary')}</p>`
        : html`<ul class="plain home-sites">
              ${shown.map(({ site: s, owner, state }) => {
                const edit = href(`/builder/sites/${s.siteId}`, owner.as);
                return html`<li class="home-site" data-site="${s.siteId}">
                  <h3 class="home-site-title">
                    <a href="${edit}">${s.title}</a>
                    ${s.suspendedReason !== null ? badge('Suspended', 'danger') : stateBadge(state)}
                  </h3>
                  ${newMessagesLink(bySite.get(s.siteId), owner.as, s.title)}
                  <p class="small muted">
                    ${owner.as ? html`As ${owner.name} · ` : ''}${
                      s.liveUrl
                        ? html`Online at <a href="${s.liveUrl}">${displayUrl(s.liveUrl)}</a>`
                        : 'Not online yet: nobody sees it until you publish'
                    }
                  </p>
                  <p class="cluster">
                    ${linkButton(edit, html`Edit<span class="visually-hidden"> ${s.title}</span>`, 'primary')}
                    ${s.liveUrl ? html`<a class="btn" href="${s.liveUrl}" data-field="view-site">View site<span class="visually-hidden"> ${s.title}</span></a>` : ''}
                  </p>
                </li>`;
              })}
            </ul>
            <p>
              <a href="/builder"
                >${sites.length > shown.length ? `All ${sites.length} sites` : 'All your sites'}</a
              >
              <span class="muted small">— a new site, publish and versions, pictures, forms</span>
            </p>`,
      { id: 'sites' },
    );
    const messagesCard = card(
      'New messages',
      html`${
        unread.count > 0
          ? html`<p class="new-messages-total">
                <a href="${messagesHref(unread)}" data-field="unread-submissions"
                  >${messagesWords(unread.count)}</a
                >
                from visitors to your sites.
              </p>
              <ul class="plain">
                ${forms
                  .filter((f) => f.unreadCount > 0)
                  .map(
                    (f) =>
                      html`<li>
                        <a href="${href(`/builder/forms/${f.formId}`, f.as)}">${f.name}</a>:
                        ${messagesWords(f.unreadCount)}${
                          f.unreadBySite.length > 0
                            ? html`<span class="muted">
                                on
                                ${f.unreadBySite
                                  .map((x) => `‘${titles.get(x.siteId) ?? 'a deleted site'}’`)
                                  .join(', ')}</span
                              >`
                            : ''
                        }
                      </li>`,
                  )}
              </ul>`
          : html`<p data-field="no-new-messages" class="muted">
              No new messages. When a visitor sends a form on one of your sites, it shows here.
            </p>`
      }${submissionMail ? html`<p class="small" data-field="submission-mail">${submissionMail}</p>` : ''}`,
      { id: 'messages' },
    );
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
      ${o.error && !o.createValues ? problemNotice(o.error) : ''} ${sitesCard}
      ${sites.length > 0 || forms.length > 0 ? messagesCard : ''}
      <div class="grid home-grid">
        ${card(
          'Who you are',
          html`${keyValues([
              ['Name', me?.name ?? '—'],
              ['Handle', account?.handle ? `@${account.handle}` : '—'],
              [
                'Email',
                account?.email
                  ? html`${emailText(account.email)}
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
              ['Times', timeZoneSetting(person)],
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
              <a href="/docs/guide">Guide</a>
              <span class="muted small">— what you can do here, step by step</span>
            </li>
          </ul>`,
          { id: 'links' },
        )}
      </div>
      ${card(
        'Recent events',
        html`<p class="muted">
            What was done lately by you, your other identities, visitors and this instance, newest first.
          </p>
          <details class="small event-codes">
            <summary>Show the technical name of each event</summary>
            <p class="muted">
              Each event's type, as the log and the API name it, is shown after its time (for developers and
              support). Drafts rendered for a preview or a publish are left out here; the log keeps them.
            </p>
          </details>
          ${
            lines.length
              ? [...EVENT_AREAS, ['other', 'Other', []] as const]
                  .map(
                    ([id, title]) =>
                      [id, title, lines.filter((l) => eventArea(l.events[0]!.event.type) === id)] as const,
                  )
                  .filter(([, , list]) => list.length)
                  .map(([id, title, list]) => {
                    return html`<h3 id="events-${id}">${title}</h3>
                      ${table({
                        caption: `Recent events: ${title}`,
                        head: ['What happened', 'By'],
                        // Two columns, the time under the sentence: it reads on a phone without scrolling.
                        rows: list.map((line) => {
                          const newest = line.events[0]!;
                          const oldest = line.events.at(-1)!;
                          return [
                            // The type is the technical name, shown only on asking (.event-codes, app.css).
                            html`${lineSentence(line, {
                                you: p.agentId,
                                siteTitle: (id) => titles.get(id),
                                formName: (id) => formNames.get(id),
                              })}<br /><span class="small muted"
                                >${
                                  line.events.length > 1
                                    ? whenRange(oldest.event.occurredAt, newest.event.occurredAt)
                                    : when(newest.event.occurredAt)
                                }<span class="event-code">
                                  ·
                                  <code
                                    data-event-type
                                    data-sequence="${String(newest.sequence)}"
                                    data-events="${String(line.events.length)}"
                                    >${newest.event.type}</code
                                  ></span
                                ></span
                              >`,
                            eventActor(newest.event, {
                              since: account?.createdAt ?? null,
                              nameOf: actorName,
                            }),
                          ];
                        }),
                      })}`;
                  })
              : emptyState('Nothing yet.')
          }`,
        { id: 'events' },
      )}
      ${card(
        'Other identities',
        html`<p class="muted">
            Work under another name — a shop, a club, a project. Each identity has its own name and handle and
            its own sites, and an agent’s token can be limited to one.
          </p>
          ${table({ caption: 'Your other identities', head: ['Identity', 'Created', 'Change'], rows: personaRows, empty: 'None yet. Create one below.' })}
          <h3 id="new-persona">New identity</h3>
          ${o.error && o.createValues && o.error.code !== 'input.invalid' ? problemNotice(o.error, 'Could not create the identity.') : ''}
          <form method="post" action="/home/personas" aria-labelledby="new-persona">
            ${csrfField(person.csrf)}
            ${field({ name: 'name', label: 'Name', value: v.name, required: true, maxlength: 100, error: createErrors.name })}
            ${field({ name: 'handle', label: 'Handle (optional)', value: v.handle, hint: '3–30 characters: a–z, 0–9 and _, starting with a letter; unique on this instance.', error: createErrors.handle })}
            <div class="actions">${button('Create identity', { kind: 'primary' })}</div>
          </form>`,
        { id: 'personas' },
      )}
      ${card(
        'For agents and apps',
        html`<p class="muted">
            For AI agents, scripts and apps that act for
            you${person.isOperator ? ', and for running this instance' : ''}. Your website needs none of it.
          </p>
          <ul class="plain">
            <li>
              <a href="/access">Agent access</a>
              <span class="muted small">— tokens for your agents, what each may do</span>
            </li>
            <li>
              <a href="/mcp/apps">Connected apps</a>
              <span class="muted small">— OAuth apps acting for you</span>
            </li>
            ${person.isOperator ? html`<li><a href="/operator">Operator</a> <span class="muted small">— peers, federation, the log, mail</span></li>` : ''}
            <li>
              <a href="/docs">Reference</a>
              <span class="muted small">— the HTTP API and the MCP tools, for developers</span>
            </li>
          </ul>
          <section id="provenance" aria-labelledby="provenance-h">
            <h3 id="provenance-h">Recent tool calls</h3>
            <p class="muted">
              What your agents — apps and scripts you gave a token — did here, allowed or refused.
            </p>
            ${table({
              caption: 'Recent tool calls',
              head: ['When', 'Tool', 'As', 'Outcome'],
              rows: provenance.map((e) => [
                when(e.at),
                html`<code>${e.tool}</code>`,
                nameOf(e.actorId),
                e.outcome === 'ok'
                  ? badge('ok', 'ok')
                  : html`${badge(e.outcome === 'denied' ? 'refused' : 'did not work', 'danger')}${
                      e.errorCode
                        ? html`${codeWords(e.errorCode) ? html`<br /><span class="small">${codeWords(e.errorCode)}</span>` : ''}
                            <small class="code" data-error-code="${e.errorCode}">${e.errorCode}</small>`
                        : ''
                    }`,
              ]),
              empty: html`No tool calls yet. <a href="/access">Give an agent a token</a> to start.`,
            })}
          </section>
          <p>${linkButton('/access', 'Manage agent access')}</p>`,
        { id: 'agents' },
      )}`;
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

  // The zone the person's pages are written in (docs/web.md#times), kept on their account: read with the
  // session on every page, on every device. None chosen: each browser's own (the `tz` cookie app.js sets).
  r.post('/home/time-zone', ...body, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const zone = formText(req, 'zone').trim();
    try {
      await runOperation(ctx, setTimeZone, { timeZone: zone === '' ? null : zone }, person.principal);
    } catch (e) {
      if (!isDomainError(e)) throw e;
      return home(req, res, person, { status: STATUS_OF_KIND[e.kind], error: e });
    }
    forgetZoneChosenHere(req, res, { secure: ctx.cookie.secure });
    redirectWithNotice(res, '/home', zone === '' ? 'zone-browser' : 'zone-chosen');
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
