// Publishing (/builder/sites/:siteId/publish): where the draft stands, publishing it with a note, the
// published versions (when, by whom, the note), rolling back to one and restoring one into the draft.
// Previews are not versions and are not listed (docs/builder.md#versions).
import { PUBLISH_NOTE_MAX, type DomainError } from '@tributary/domain';
import { publishSite, readSite, restoreVersion, rollbackSite } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  badge,
  button,
  card,
  csrfField,
  field,
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
import { publicationBar, siteTabs, suspendedNotice } from './builder-pieces.js';

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
    const { site, address, liveUrl, state, publication, versions, nextBefore } = read.value;
    const served = publication?.versionId ?? null;
    const servedVersion = versions.find((v) => v.versionId === served);
    const typedNote = error ? str(req.body as FormBody, 'note') : '';
    const body = html`${noticeOf(req)}
    ${site.suspendedReason !== null ? suspendedNotice(site.suspendedReason) : ''}
    ${error ? problemNotice(error) : ''} ${siteTabs(siteId, as, 'publish')}
    ${card(
      'Publish',
      html`${publicationBar({
          siteId,
          as,
          csrf: person.csrf,
          state,
          liveUrl,
          servedVersionId: served,
          draftRevision: site.draftRevision,
          // Served but not the newest publish: the site was rolled back (on the first page of the list).
          rolledBack: served !== null && !before && versions[0]?.versionId !== served,
        })}
        ${keyValues([
          [
            'Online',
            publication
              ? html`since
                ${when(publication.publishedAt)}${servedVersion?.note ? html` — “${servedVersion.note}”` : ''}`
              : 'not yet',
          ],
          [
            'Address',
            address
              ? html`<a href="${address.url}" data-field="site-url">${address.url}</a> (also
                  <a href="${address.pathUrl}">${address.pathUrl}</a>)`
              : html`none yet: publishing gives the site one made from its title (you can
                  <a href="${href(`/builder/sites/${siteId}/address`, as)}">choose it first</a>)`,
          ],
        ])}
        <form method="post" action="/builder/sites/${siteId}/publish" class="stack">
          ${csrfField(person.csrf)}${asField(as)}
          ${field({
            name: 'note',
            label: 'Note (optional)',
            hint: `A line to remember what changed, shown in the list of versions (at most ${PUBLISH_NOTE_MAX} characters).`,
            maxlength: PUBLISH_NOTE_MAX,
            value: typedNote,
          })}
          <div class="actions">${button('Publish the draft', { kind: 'primary' })}</div>
        </form>`,
      { id: 'publish' },
    )}
    ${card(
      'Versions',
      html`<p class="small muted">
          Each time you publish, what went online is kept here. Rolling back puts an earlier one online again,
          exactly as it was; your draft stays as it is until you restore that version into it. Previews are
          not kept here.
        </p>
        ${table({
          caption: 'Published versions, newest first',
          head: ['Published', 'By', 'Note', ''],
          stack: true,
          empty: 'Nothing published yet: publish the draft to put the site online.',
          rows: versions.map((v) => [
            html`${when(v.publishedAt)} ${v.versionId === served ? badge('Live', 'ok') : ''}`,
            v.publishedByName ?? html`<span class="muted">someone no longer known</span>`,
            v.note ?? html`<span class="muted">no note</span>`,
            html`<div class="cluster">
              ${
                v.versionId === served
                  ? ''
                  : postButton({
                      action: `/builder/sites/${siteId}/rollback`,
                      csrf: person.csrf,
                      label: html`Roll back<span class="visually-hidden">
                          to the version published ${v.publishedAt.slice(0, 16).replace('T', ' ')} UTC</span
                        >`,
                      fields: { versionId: v.versionId, ...(as && { as }) },
                      confirm: 'Put this version online again? Your draft is left as it is.',
                    })
              }
              ${postButton({
                action: `/builder/sites/${siteId}/restore`,
                csrf: person.csrf,
                label: html`Restore into the draft<span class="visually-hidden">
                    the version published ${v.publishedAt.slice(0, 16).replace('T', ' ')} UTC</span
                  >`,
                fields: {
                  versionId: v.versionId,
                  revision: String(site.draftRevision),
                  ...(as && { as }),
                },
                confirm: 'Replace the draft with this version? The current draft stays in its history.',
              })}
            </div>`,
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
    const note = str(req.body as FormBody, 'note').trim();
    const done = await attempt(() =>
      run(publishSite, { ...target(as), siteId, ...(note && { note }) }, person),
    );
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

  r.post('/builder/sites/:siteId/restore', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const revision = Number(str(body, 'revision'));
    const done = await attempt(() =>
      run(
        restoreVersion,
        {
          ...target(as),
          siteId,
          versionId: str(body, 'versionId'),
          ...(Number.isInteger(revision) && str(body, 'revision') !== '' && { revision }),
        },
        person,
      ),
    );
    if (!done.ok) return publishPage(req, res, person, siteId, done.error);
    redirectWithNotice(res, href(`/builder/sites/${siteId}`, as), 'restored');
  });
}
