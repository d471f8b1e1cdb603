// The person's sites (/builder): the list, each with its state, and a new site.
import {
  STARTER_TEMPLATE_WORDS,
  STARTER_TEMPLATES,
  type DomainError,
  type StarterTemplate,
} from '@tributary/domain';
import { createSite, listSites } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import { badge, button, card, csrfField, field, linkButton, problemNotice, when } from '../components.js';
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

export function sitesPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, sitesDomain, posts } = page;
  async function sitesPage(
    req: Request,
    res: Response,
    person: PagePerson,
    error?: DomainError,
    status = 200,
  ) {
    const as = actingAs(req);
    const [owners, listed] = await Promise.all([
      ownersOf(ctx, person),
      attempt(() => run(listSites, target(as), person)),
    ]);
    if (!listed.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Your sites', current: '/builder', body: problemNotice(listed.error) },
        404,
      );
    const sites = listed.value.sites;
    const body = html`${ownerChooser('/builder', owners, as)}
      ${noticeOf(req)}${error ? problemNotice(error) : ''} ${builderTabs(as, 'sites')}
      <ul class="site-list plain stack">
        ${sites.map(
          (s) =>
            html`<li class="card site-row">
              <h2>
                <a href="${href(`/builder/sites/${s.siteId}`, as)}">${s.title}</a>
                ${s.isDefault ? badge('default') : ''}
                ${s.suspendedReason !== null ? badge('suspended', 'danger') : s.publishedVersionId ? badge('online', 'ok') : badge('never published', 'warn')}
              </h2>
              <p class="small muted">
                ${s.publishedAt ? html`Last put online ${when(s.publishedAt)}` : 'Not online yet: publish it to give it an address'}
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
      ${card(
        'New site',
        html`<form method="post" action="/builder/sites" class="stack">
          ${csrfField(person.csrf)}${asField(as)}
          ${field({ name: 'title', label: 'Title', required: true, maxlength: 120 })}
          ${field({ name: 'label', label: 'Address (optional)', hint: `Lower-case letters, digits and hyphens: the site answers at <label>.${sitesDomain}.`, maxlength: 63 })}
          ${templateChoice(chosenTemplate(req))}
          <div class="actions">${button('Create site', { kind: 'primary' })}</div>
        </form>`,
        { id: 'new-site' },
      )}`;
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
    redirectWithNotice(res, href(`/builder/sites/${made.value.siteId}`, as), 'created');
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
