// Publishing (/builder/sites/:siteId/publish): where the draft stands, publishing it with a note, the
// published versions (when, by whom, the note), rolling back to one and restoring one into the draft,
// and what was online when: every publish, rollback, restore and suspension in words
// (docs/builder.md#history).
// Previews are not versions and are not listed (docs/builder.md#versions).
import { PUBLISH_NOTE_MAX, type DomainError } from '@tributary/domain';
import {
  listHistory,
  previewSite,
  publishSite,
  readSite,
  restoreVersion,
  rollbackSite,
  type SiteHistoryEntry,
} from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  badge,
  button,
  card,
  csrfField,
  emptyState,
  field,
  keyValues,
  postButton,
  problemNotice,
  table,
  when,
  whenText,
} from '../components.js';
import { html, type Html } from '../html.js';
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

/** How many changes the history card shows at a time. */
const HISTORY_PAGE = 10;

/**
 * One change of the history in words: what happened as a short title and when, then who did it and
 * which versions — each named by its note and when it was first published (never its id), as the
 * versions list names them. `who` is "You" for the person reading, else the agent's name.
 */
function historyLine(h: SiteHistoryEntry, who: string, noteOf: (versionId: string) => string | null): Html {
  const head = (title: Html | string, more: Html | string = '') =>
    html`<p class="history-head">
      <strong>${title}</strong>${more} <span class="small">${when(h.at, 'never', { ago: true })}</span>
    </p>`;
  // An operator's suspension and its lifting concern no version: said for the owner, with the reason.
  if (h.suspended || h.unsuspended)
    return html`<li class="history-entry" data-action="${h.suspended ? 'suspended' : 'unsuspended'}">
      ${
        h.suspended
          ? html`${head(
                'Suspended by the operator:',
                html` <span data-field="history-reason">“${h.reason ?? ''}”</span>`,
              )}
              <p>
                ${who} (an operator of this instance) took the site offline with this reason: while it is
                suspended, visitors see the reason instead of the site, and it cannot be published.
              </p>`
          : html`${head('Back online')}
              <p>
                ${who} (an operator of this instance) lifted the suspension: visitors see the site again, and
                it can be published.
              </p>`
      }
    </li>`;
  const versionId = h.versionId!;
  const versionPublishedAt = h.versionPublishedAt ?? h.at;
  const version = (id: string, publishedAt: string | null) => {
    const note = noteOf(id);
    const at = when(publishedAt, 'at a time no longer known');
    return note ? html`“${note}” (published ${at})` : html`the version published ${at}`;
  };
  const replaced = h.replacedVersionId
    ? html`, in place of ${version(h.replacedVersionId, h.replacedVersionPublishedAt)}`
    : '';
  const note = noteOf(versionId);
  // A publish whose content was online before (a restored version published again) says which it is.
  const publishedBefore = versionPublishedAt < h.at;
  const forward = h.replacedVersionPublishedAt !== null && versionPublishedAt > h.replacedVersionPublishedAt;
  const [title, sentence]: [string, Html] = h.restore
    ? [
        'Restored into the draft',
        html`${who} put the content of ${version(versionId, versionPublishedAt)} back into the draft. What was
        online did not change.`,
      ]
    : h.rollback
      ? [
          forward ? 'Put a newer version back online' : 'Went back to an earlier version',
          html`${who} put ${version(versionId, versionPublishedAt)} online again${replaced}.`,
        ]
      : [
          'Published',
          publishedBefore
            ? html`${who} put the draft online, the same as
              ${version(versionId, versionPublishedAt)}${replaced}.`
            : html`${who} put the ${h.replacedVersionId ? 'draft' : 'site'}
              online${h.replacedVersionId ? '' : ' for the first time'}${
                note ? html`, with the note “${note}”` : ''
              }${replaced}.`,
        ];
  const action = h.restore ? 'restored' : h.rollback ? 'rolled_back' : 'published';
  return html`<li class="history-entry" data-action="${action}">
    ${head(title)}
    <p>${sentence}</p>
  </li>`;
}

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
    const historyBefore =
      typeof req.query.historyBefore === 'string' && /^[1-9]\d{0,9}$/.test(req.query.historyBefore)
        ? Number(req.query.historyBefore)
        : undefined;
    const history = await run(
      listHistory,
      { ...target(as), siteId, limit: HISTORY_PAGE, ...(historyBefore && { before: historyBefore }) },
      person,
    );
    // Names and notes are words, so the history read has none: the page adds them.
    const names = new Map<string, string>();
    for (const by of new Set(history.entries.map((h) => h.by)))
      names.set(
        by,
        by === person.principal.agentId
          ? 'You'
          : ((await ctx.services.agents.read.agent(by))?.name ?? 'Someone no longer known'),
      );
    const notes = new Map(versions.map((v) => [v.versionId, v.note]));
    const noteOf = (versionId: string) => notes.get(versionId) ?? null;
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
          // Rolled back, and the draft still holds what it went back from (not restored since).
          rolledBack: read.value.draftHoldsRolledBack,
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
          Each time you publish, what went online is kept here, with when it was first published. Going back
          puts an earlier one online again, exactly as it was (and a newer one can be put back online the same
          way); your draft stays as it is until you restore a version into it. Previews are not kept here.
        </p>
        ${table({
          caption: 'Published versions, newest first',
          head: ['Published', 'By', 'Note', ''],
          stack: true,
          empty: 'Nothing published yet: publish the draft to put the site online.',
          rows: versions.map((v) => [
            html`${when(v.publishedAt, 'never', { ago: true })}
            ${v.versionId === served ? html`${badge('Live', 'ok')} <span class="small">online now</span>` : ''}`,
            v.publishedByName ?? html`<span class="muted">someone no longer known</span>`,
            v.note ?? html`<span class="muted">no note</span>`,
            html`<div class="cluster">
              ${
                v.versionId === served
                  ? ''
                  : postButton({
                      action: `/builder/sites/${siteId}/rollback`,
                      csrf: person.csrf,
                      // Named by direction from the live version: a row newer than it moves the site forward.
                      label:
                        publication && v.createdAt > publication.versionCreatedAt
                          ? html`Put this newer version online<span class="visually-hidden">
                                (published ${whenText(v.publishedAt)})</span
                              >`
                          : html`Go back to this version<span class="visually-hidden">
                                (published ${whenText(v.publishedAt)})</span
                              >`,
                      fields: { versionId: v.versionId, ...(as && { as }) },
                      confirm: 'Put this version online? Your draft is left as it is.',
                    })
              }
              ${
                // The draft is exactly the live version: restoring it would change nothing.
                v.versionId === served && state === 'live'
                  ? html`<span class="small muted">Your draft is this version</span>`
                  : postButton({
                      action: `/builder/sites/${siteId}/restore`,
                      csrf: person.csrf,
                      label: html`Restore into the draft<span class="visually-hidden">
                          the version published ${whenText(v.publishedAt)}</span
                        >`,
                      fields: {
                        versionId: v.versionId,
                        revision: String(site.draftRevision),
                        ...(as && { as }),
                      },
                      confirm: 'Replace the draft with this version? The current draft stays in its history.',
                    })
              }
            </div>`,
          ]),
        })}
        ${nextBefore ? html`<p><a href="${href(`/builder/sites/${siteId}/publish`, as, { before: nextBefore })}">Older versions</a></p>` : ''}`,
      { id: 'versions' },
    )}
    ${card(
      'What was online when',
      html`<p class="small muted">
          Every change to what is online — each publish, each time the site went back or forward to a version,
          and each time the operators of this instance suspended the site or lifted its suspension — and each
          version restored into the draft, newest first.
        </p>
        ${
          history.entries.length
            ? html`<ol class="plain stack history">
                ${history.entries.map((h) => historyLine(h, names.get(h.by)!, noteOf))}
              </ol>`
            : emptyState('Nothing yet: the history starts with the first publish.')
        }
        ${
          history.nextBefore
            ? html`<p>
                <a
                  href="${href(`/builder/sites/${siteId}/publish`, as, { historyBefore: String(history.nextBefore) })}#history"
                  >Earlier changes</a
                >
              </p>`
            : ''
        }`,
      { id: 'history' },
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
    // The editor shows the restored draft in its preview at once.
    const preview = await attempt(() => run(previewSite, { ...target(as), siteId }, person));
    redirectWithNotice(
      res,
      href(`/builder/sites/${siteId}`, as, {
        preview: preview.ok ? new URL(preview.value.previewUrl).pathname : undefined,
      }),
      done.value.state === 'live' ? 'restoredlive' : 'restored',
    );
  });
}
