// Publishing (/builder/sites/:siteId/publish): the versions, publishing the draft, rolling back.
import { type DomainError } from '@tributary/domain';
import { publishSite, readSite, rollbackSite } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  badge,
  button,
  card,
  csrfField,
  keyValues,
  postButton,
  problemNotice,
  table,
  when,
} from '../components.js';
import { html } from '../html.js';
import {
  statusOfError,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { str, type FormBody } from './draft-edits.js';
import { actingAs, asField, attempt, href, isUuid, sendStudioPage, target } from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import { siteTabs, suspendedNotice } from './builder-pieces.js';

export function publishPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, siteIdOf, posts } = page;
  async function publishPage(
    req: Request,
    res: Response,
    person: PagePerson,
    siteId: string,
    error?: DomainError,
  ) {
    const as = actingAs(req);
    const before =
      typeof req.query.before === 'string' && isUuid(req.query.before) ? req.query.before : undefined;
    const read = await attempt(() =>
      run(readSite, { ...target(as), siteId, limit: 20, ...(before && { before }) }, person),
    );
    if (!read.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Site not found', current: '/builder', body: problemNotice(read.error) },
        404,
      );
    const { site, address, publication, versions, nextBefore } = read.value;
    const served = publication?.versionId;
    const body = html`${noticeOf(req)}
    ${site.suspendedReason !== null ? suspendedNotice(site.suspendedReason) : ''}
    ${error ? problemNotice(error) : ''} ${siteTabs(siteId, as, 'publish')}
    ${card(
      'Publish',
      html`${keyValues([
          ['Draft revision', String(site.draftRevision)],
          [
            'Serving',
            served
              ? html`version <code>${served.slice(0, 8)}</code> since ${when(publication.publishedAt)}`
              : 'nothing yet: never published',
          ],
          [
            'Address',
            address
              ? html`<a href="${address.url}" data-field="site-url">${address.url}</a> (also
                  <a href="${address.pathUrl}">${address.pathUrl}</a>)`
              : html`none — <a href="${href(`/builder/sites/${siteId}/address`, as)}">claim one</a>`,
          ],
        ])}
        <form method="post" action="/builder/sites/${siteId}/publish">
          ${csrfField(person.csrf)}${asField(as)} ${button('Publish the draft', { kind: 'primary' })}
        </form>`,
      { id: 'publish' },
    )}
    ${card(
      'Versions',
      html`<p class="small muted">
          Every publish keeps its version. Rolling back serves a stored version again, byte for byte; it
          renders nothing.
        </p>
        ${table({
          caption: 'Versions, newest first',
          head: ['Version', 'Made', ''],
          empty: 'No versions yet: preview or publish to make one.',
          rows: versions.map((v) => [
            html`<code class="nowrap">${v.versionId.slice(0, 8)}</code>
              ${v.versionId === served ? badge('live', 'ok') : ''}<br /><span class="small muted"
                >draft revision ${String(v.draftRevision)}</span
              >`,
            when(v.createdAt),
            v.versionId === served
              ? html`<span class="small muted">served now</span>`
              : postButton({
                  action: `/builder/sites/${siteId}/rollback`,
                  csrf: person.csrf,
                  label: html`Roll back<span class="visually-hidden">
                      to this version ${v.versionId.slice(0, 8)}</span
                    >`,
                  fields: { versionId: v.versionId, ...(as && { as }) },
                  confirm: 'Serve this version again?',
                }),
          ]),
        })}
        ${nextBefore ? html`<p><a href="${href(`/builder/sites/${siteId}/publish`, as, { before: nextBefore })}">Older versions</a></p>` : ''}`,
      { id: 'versions' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: `Publish ${site.title}`, current: '/builder', body },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/builder/sites/:siteId/publish', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (person && siteId) await publishPage(req, res, person, siteId);
  });

  r.post('/builder/sites/:siteId/publish', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const done = await attempt(() => run(publishSite, { ...target(as), siteId }, person));
    if (!done.ok) return publishPage(req, res, person, siteId, done.error);
    redirectWithNotice(
      res,
      href(`/builder/sites/${siteId}/publish`, as),
      done.value.published ? 'published' : 'unchanged',
    );
  });

  r.post('/builder/sites/:siteId/rollback', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const versionId = str(req.body as FormBody, 'versionId');
    const done = await attempt(() => run(rollbackSite, { ...target(as), siteId, versionId }, person));
    if (!done.ok) return publishPage(req, res, person, siteId, done.error);
    redirectWithNotice(res, href(`/builder/sites/${siteId}/publish`, as), 'rolledback');
  });
}
