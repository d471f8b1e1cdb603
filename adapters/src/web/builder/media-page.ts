// The picture library (/builder/media): upload, describe and delete pictures.
import {
  domainError,
  invalid,
  mediaTooLargeMessage,
  type DomainError,
  type DraftDocument,
} from '@tributary/domain';
import { deleteMedia, listMedia, readDraft, saveDraft, uploadMedia } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import { readMultipartUpload, sameOrigin } from '../../http/index.js';
import { button, card, csrfField, field, postButton, problemNotice, table, when } from '../components.js';
import { html } from '../html.js';
import {
  statusOfError,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { str, type FormBody } from './draft-edits.js';
import {
  actingAs,
  asField,
  attempt,
  href,
  isUuid,
  ownerChooser,
  ownersOf,
  sendStudioPage,
  target,
} from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import { MEDIA_TYPES, builderTabs, type MediaItem } from './builder-pieces.js';

const wantsJson = (req: Request) => (req.get('accept') ?? '').includes('application/json');

export function mediaPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, posts } = page;
  async function mediaPage(req: Request, res: Response, person: PagePerson, error?: DomainError) {
    const as = actingAs(req);
    const [owners, media] = await Promise.all([
      ownersOf(ctx, person),
      run(listMedia, { ...target(as), limit: 200 }, person),
    ]);
    const back = typeof req.query.site === 'string' && isUuid(req.query.site) ? req.query.site : undefined;
    const body = html`${ownerChooser('/builder/media', owners, as)}
    ${noticeOf(req)}${error ? problemNotice(error) : ''} ${builderTabs(as, 'media')}
    ${back ? html`<p><a href="${href(`/builder/sites/${back}`, as)}">Back to the site</a></p>` : ''}
    ${card(
      'Upload a picture',
      html`<form
          method="post"
          action="/builder/media"
          enctype="multipart/form-data"
          class="stack"
          data-upload
        >
          ${csrfField(person.csrf)}${asField(as)}
          ${back ? html`<input type="hidden" name="site" value="${back}" />` : ''}
          <div class="field drop-zone">
            <label for="media-file">Picture (JPEG, PNG, WebP, GIF, AVIF or HEIC from an iPhone)</label>
            <input id="media-file" name="file" type="file" accept="${MEDIA_TYPES}" required />
          </div>
          ${field({ name: 'alt', label: 'Description for people who cannot see it (alt text)', maxlength: 300 })}
          <div class="actions">${button('Upload', { kind: 'primary' })}</div>
        </form>
        <p class="small muted">
          Pictures are re-encoded without their metadata (location, camera); SVG is not accepted.
        </p>`,
      { id: 'upload' },
    )}
    ${card(
      'Your pictures',
      table({
        caption: 'Your pictures, newest first',
        head: ['File', 'Size', 'Alt text', 'Uploaded', ''],
        // On a phone each picture is a card: five columns scrolled the upload time out of sight at 390 px.
        stack: true,
        empty: 'No pictures yet.',
        rows: (media.items as MediaItem[]).map((m) => [
          html`<span class="cluster nowrap-cell"
            ><img
              class="library-thumb"
              src="/api/builder/media/thumbnail?${new URLSearchParams({ mediaId: m.mediaId, size: '128', ...(as && { targetAgentId: as }) }).toString()}"
              alt=""
              width="48"
              height="48"
              loading="lazy"
            /><span data-media-id="${m.mediaId}">${m.filename}</span></span
          >`,
          `${m.width}×${m.height}`,
          m.alt ?? '',
          when(m.uploadedAt, 'never', { ago: true }),
          postButton({
            action: '/builder/media/delete',
            csrf: person.csrf,
            label: html`Delete<span class="visually-hidden"> ${m.filename}</span>`,
            kind: 'danger',
            fields: { mediaId: m.mediaId, ...(as && { as }) },
            confirm: 'Delete this picture from the library?',
          }),
        ]),
      }),
      { id: 'library' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: 'Pictures', current: '/builder', body, scripts: ['studio-builder.js'] },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/builder/media', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    if (person) await mediaPage(req, res, person);
  });

  // A multipart form: the session is checked before a byte of the body is read, the CSRF token (one of
  // its fields) before the picture is handed on to svc.builder.upload_media.
  r.post('/builder/media', sameOrigin(ctx.baseUrl), async (req, res) => {
    const signedIn = await requirePerson(ctx, req, res);
    if (!signedIn) return;
    const maxBytes = ctx.services.builder.media.limits.maxBytes;
    const form = await attempt(() =>
      readMultipartUpload(req, res, {
        maxBytes,
        fields: new Set(['csrf', 'as', 'alt', 'site', 'page', 'add', 'after']),
        tooLarge: () =>
          domainError('builder.media_too_large', 'too_large', mediaTooLargeMessage(maxBytes), { maxBytes }),
        malformed: (message) => invalid('builder.media_upload_malformed', message),
      }),
    );
    if (!form.ok) return refused(req, res, signedIn, form.error);
    req.body = form.value.fields;
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const { file, filename, fields } = form.value;
    const site = isUuid(fields.site) ? fields.site : undefined;
    const pageIndex = Number(fields.page) || 0;
    // A picture block needs its alt text (its own form asks for it): an upload into the page waits for
    // it. The form requires it, and the script asks before sending; this holds for any other client.
    if (site && fields.add === 'image' && !fields.alt?.trim()) {
      const noAlt = invalid(
        'input.invalid',
        'write the alt text of the picture (what it shows, for people who cannot see it), then upload it again',
        { field: 'alt' },
      );
      if (wantsJson(req)) return refused(req, res, person, noAlt);
      return res.redirect(
        303,
        `${href(`/builder/sites/${site}`, as, { page: String(pageIndex), uploadproblem: 'alt' })}#add-image`,
      );
    }
    const done = await attempt(() =>
      run(
        uploadMedia,
        {
          ...target(as),
          content: file.toString('base64'),
          ...(filename && { filename }),
          ...(fields.alt && { alt: fields.alt }),
        },
        person,
      ),
    );
    if (!done.ok) return refused(req, res, person, done.error);
    // From the editor with "add it to the page": the picture goes into the page in the same post.
    if (site && (fields.add === 'image' || fields.add === 'gallery')) {
      const { media } = done.value;
      const placed = await attempt(() =>
        addToPage(
          person,
          as,
          site,
          pageIndex,
          fields.add as 'image' | 'gallery',
          { mediaId: media.mediaId, alt: media.alt ?? '' },
          /^\d+$/.test(fields.after ?? '') ? Number(fields.after) : undefined,
        ),
      );
      const editor = href(`/builder/sites/${site}`, as, {
        page: String(pageIndex),
        notice: placed.ok ? 'pictureadded' : 'uploadednotadded',
      });
      return landed(req, res, placed.ok ? `${editor}#block-${placed.value}` : `${editor}#add-image`);
    }
    landed(
      req,
      res,
      // From the editor's picker: back to the page being edited, the picture now in the picker.
      isUuid(fields.site) && fields.page !== undefined
        ? href(`/builder/sites/${fields.site}`, as, { page: String(Number(fields.page) || 0) })
        : href('/builder/media', as, { site: isUuid(fields.site) ? fields.site : undefined }),
      'uploaded',
    );
  });

  /**
   * Puts the picture in the page as a block: after the block `after` (the one the person was editing, sent
   * by the editor's script), else at the end; answers the block's index.
   */
  async function addToPage(
    person: PagePerson,
    as: string | undefined,
    siteId: string,
    pageIndex: number,
    kind: 'image' | 'gallery',
    item: { mediaId: string; alt: string },
    after?: number,
  ): Promise<number> {
    const current = await run(readDraft, { ...target(as), siteId }, person);
    const doc = current.document as DraftDocument;
    const page = doc.pages[pageIndex];
    if (!page) throw invalid('input.invalid', 'that page is not on this draft any more; reload it');
    const at = after !== undefined && after < page.blocks.length ? after + 1 : page.blocks.length;
    page.blocks.splice(
      at,
      0,
      kind === 'image' ? { type: 'image', ...item } : { type: 'gallery', items: [item] },
    );
    // Over the revision just read: an insert cannot undo anyone's edit; a save between the two is
    // builder.draft_stale, and the picture stays in the library.
    await run(saveDraft, { ...target(as), siteId, revision: current.revision, document: doc }, person);
    return at;
  }

  /**
   * Where an upload ends: a redirect for a form post; for the editor's script (which asks for JSON), the
   * address to open, so that it can show the upload's progress and then go there.
   */
  function landed(req: Request, res: Response, location: string, notice?: string) {
    if (wantsJson(req)) {
      const to = notice ? `${location}${location.includes('?') ? '&' : '?'}notice=${notice}` : location;
      res.status(200).json({ location: to });
    } else redirectWithNotice(res, location, notice);
  }

  /** A refused upload: the library page with the problem, or the problem as JSON for the script. */
  function refused(req: Request, res: Response, person: PagePerson, error: DomainError) {
    if (wantsJson(req))
      return void res
        .status(statusOfError(error))
        .json({ code: error.code, message: error.message, details: error.details ?? {} });
    return mediaPage(req, res, person, error);
  }

  r.post('/builder/media/delete', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const done = await attempt(() =>
      run(deleteMedia, { ...target(as), mediaId: str(req.body as FormBody, 'mediaId') }, person),
    );
    if (!done.ok) return mediaPage(req, res, person, done.error);
    redirectWithNotice(res, href('/builder/media', as), 'mediadeleted');
  });
}
