// The person's sites (/builder): the list, each with its state, and a new site.
import {
  STARTER_TEMPLATE_WORDS,
  STARTER_TEMPLATES,
  type DomainError,
  type StarterTemplate,
} from '@tributary/domain';
import { createSite, listForms, listSites, previewSite } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  badge,
  button,
  card,
  csrfField,
  field,
  linkButton,
  notice,
  problemNotice,
  when,
} from '../components.js';
import { html, raw, type Html } from '../html.js';
import { postingPerson, redirectWithNotice, requirePerson, type PagePerson } from '../page-session.js';
import { str, type FormBody } from './draft-edits.js';
import {
  actingAs,
  asField,
  attempt,
  href,
  ownerChooser,
  ownersOf,
  sendStudioPage,
  target,
} from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import { builderTabs } from './builder-pieces.js';
import { allNewMessages, messagesHref, newMessagesBySite, newMessagesLink } from './new-messages.js';

export function sitesPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, siteAddress, posts } = page;
  async function sitesPage(
    req: Request,
    res: Response,
    person: PagePerson,
    error?: DomainError,
    status = 200,
  ) {
    const as = actingAs(req);
    const [owners, listed, forms] = await Promise.all([
      ownersOf(ctx, person),
      attempt(() => run(listSites, target(as), person)),
      // What visitors sent since the owner last looked (docs/builder.md#unread).
      attempt(() => run(listForms, target(as), person)).then((f) => (f.ok ? f.value.forms : [])),
    ]);
    const unread = allNewMessages(forms);
    const bySite = newMessagesBySite(forms);
    if (!listed.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Your sites', current: '/builder', body: problemNotice(listed.error) },
        404,
      );
    // The default site listed "as it will be created" is not shown: someone who made nothing yet sees
    // the one next step, making their first site (list_sites' `created`, docs/builder.md#owners-and-sites).
    const sites = listed.value.sites.filter((s) => s.created);
    const first = sites.length === 0;
    const newSite = html`<form method="post" action="/builder/sites" class="stack">
      ${csrfField(person.csrf)}${asField(as)} ${templateChoice(chosenTemplate(req))}
      ${field({ name: 'title', label: 'Title', required: true, maxlength: 120, hint: 'The name at the top of every page: your name, your shop’s, your event’s.', value: error ? str(req.body as FormBody, 'title') : undefined })}
      ${field({ name: 'label', label: 'Address (optional)', hint: `Lower-case letters, digits and hyphens: the site answers at ${siteAddress('<label>')}. Left empty, one is made from the title when you first publish.`, maxlength: 63, value: error ? str(req.body as FormBody, 'label') : undefined, error: error?.code.startsWith('builder.label_') ? 'Choose another address, or leave it empty for one made from the title.' : undefined })}
      <div class="actions">${button('Create site', { kind: 'primary' })}</div>
    </form>`;
    const body = html`${ownerChooser('/builder', owners, as)}
    ${noticeOf(req)}${error ? problemNotice(error) : ''} ${builderTabs(as, 'sites')}
    ${
      unread.count > 0
        ? notice(
            'info',
            html`<p data-field="unread-submissions">
              Visitors sent your forms
              ${unread.count === 1 ? 'a new message' : `${unread.count} new messages`}.
              <a href="${messagesHref(unread, as)}">Read ${unread.count === 1 ? 'it' : 'them'}</a>
            </p>`,
          )
        : ''
    }
    ${
      first
        ? card(
            'Make your first site',
            html`<p data-field="no-sites">
                You have no site yet. Pick what to start from and give it a title: you get a draft to change
                as you like, and nobody sees it until you publish.
              </p>
              ${newSite}`,
            { id: 'new-site' },
          )
        : html`<ul class="site-list plain stack">
              ${sites.map(
                (s) =>
                  html`<li class="card site-row">
                    <h2>
                      <a href="${href(`/builder/sites/${s.siteId}`, as)}">${s.title}</a>
                      ${s.isDefault ? badge('default') : ''}
                      ${s.suspendedReason !== null ? badge('suspended', 'danger') : s.publishedVersionId ? badge('online', 'ok') : badge('never published', 'warn')}
                    </h2>
                    ${newMessagesLink(bySite.get(s.siteId), as, s.title)}
                    <p class="small muted">
                      ${s.publishedAt ? html`Last put online ${when(s.publishedAt, 'never', { ago: true })}` : 'Not online yet: publish it to give it an address'}
                    </p>
                    <p class="cluster">
                      ${linkButton(href(`/builder/sites/${s.siteId}`, as), 'Edit', 'primary')}
                      ${s.liveUrl ? html`<a class="btn" href="${s.liveUrl}" data-field="view-site">View site<span class="visually-hidden"> ${s.title}</span></a>` : ''}
                      ${linkButton(href(`/builder/sites/${s.siteId}/publish`, as), 'Publish and versions')}
                      ${linkButton(href(`/builder/sites/${s.siteId}/address`, as), 'Address and domains')}
                    </p>
                  </li>`,
              )}
            </ul>
            ${card('New site', newSite, { id: 'new-site' })}`
    }`;
    sendStudioPage(
      res,
      person,
      {
        title: 'Your sites',
        current: '/builder',
        body,
        lede: 'Build a website, preview it, publish it, and roll back whenever you like.',
      },
      status,
    );
  }

  r.get('/builder', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await sitesPage(req, res, person);
  });

  r.post('/builder/sites', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const label = str(body, 'label').trim();
    // The "Blank" card sends an empty value: no template, the one-page starter.
    const template = str(body, 'template');
    const made = await attempt(() =>
      run(
        createSite,
        { ...target(as), title: str(body, 'title'), ...(label && { label }), ...(template && { template }) },
        person,
      ),
    );
    if (!made.ok) return sitesPage(req, res, person, made.error, 400);
    // The editor opens on a preview of the new draft, not a blank pane (a failed preview only leaves it out).
    const preview = await attempt(() =>
      run(previewSite, { ...target(as), siteId: made.value.siteId }, person),
    );
    redirectWithNotice(
      res,
      href(`/builder/sites/${made.value.siteId}`, as, {
        preview: preview.ok ? new URL(preview.value.previewUrl).pathname : undefined,
      }),
      'created',
    );
  });
}

/** The template a refused create form had chosen, so it stays chosen. */
function chosenTemplate(req: Request): string {
  const body = req.method === 'POST' ? (req.body as FormBody) : undefined;
  return body ? str(body, 'template') : '';
}

/** The starter templates as radio cards, each with one line saying what it gives (no script needed). */
function templateChoice(chosen: string): Html {
  const cards: [StarterTemplate | '', { label: string; hint: string }][] = [
    ['', { label: 'Blank', hint: 'A single page with a heading, to build from scratch.' }],
    ...STARTER_TEMPLATES.map(
      (t) => [t, STARTER_TEMPLATE_WORDS[t]] as [StarterTemplate, { label: string; hint: string }],
    ),
  ];
  const known = cards.some(([v]) => v === chosen) ? chosen : '';
  return html`<fieldset class="field template-choice">
    <legend>Start from</legend>
    <span class="hint">You can change everything afterwards.</span>
    <div class="checks template-cards">
      ${cards.map(
        ([value, w]) =>
          html`<label class="check template-card" data-template="${value || 'blank'}"
            ><input
              type="radio"
              name="template"
              value="${value}"
              ${value === known ? raw(' checked') : ''}
            /><span><strong>${w.label}</strong><br /><span class="small muted">${w.hint}</span></span></label
          >`,
      )}
    </div>
  </fieldset>`;
}
