// The draft editor (/builder/sites/:siteId): pages and blocks, the preview pane, the site's settings.
import { type DomainError, type DraftBlock, type DraftDocument, type LeafBlock } from '@tributary/domain';
import {
  listForms,
  listMedia,
  previewSite,
  readDraft,
  readSite,
  saveDraft,
  updateSite,
} from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  button,
  card,
  csrfField,
  emptyState,
  field,
  linkButton,
  problemNotice,
  selectField,
} from '../components.js';
import { html, raw, type Html } from '../html.js';
import {
  statusOfError,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { ADDABLE_BLOCKS, LEAF_BLOCKS, applyDraftEdit, linesOf, str, type FormBody } from './draft-edits.js';
import { actingAs, asField, attempt, href, sendStudioPage, target } from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import {
  MEDIA_TYPES,
  editError,
  publicationBar,
  siteTabs,
  suspendedNotice,
  type MediaItem,
} from './builder-pieces.js';
import {
  blockFields,
  blockName,
  blockSummary,
  defaultBlock,
  placeFields,
  placeName,
  BLOCK_NAMES,
  type BlockContext,
  type Place,
} from './block-fields.js';

/** The preview's path on the sites' origin (never trusted beyond this shape; the site server checks the MAC). */
const PREVIEW_PATH = /^\/sites\/_preview\/[A-Za-z0-9._~-]{1,300}\/(?:[a-z0-9-]+\/){0,4}$/;

export function editorPageRoutes(r: Router, page: BuilderPage): void {
  const { ctx, run, noticeOf, previewOrigin, siteIdOf, posts } = page;
  interface EditorState {
    error?: DomainError;
    status?: number;
    /** The preview to frame: its path on the sites' origin. */
    preview?: string;
    /** The page of the draft to show (else `?page=`). */
    page?: number;
    /** The columns block whose editor is open (else `?open=`). */
    openColumns?: number;
  }

  async function editorPage(
    req: Request,
    res: Response,
    person: PagePerson,
    siteId: string,
    state: EditorState = {},
  ) {
    const as = actingAs(req);
    const [site, draft, media, forms] = await Promise.all([
      attempt(() => run(readSite, { ...target(as), siteId, limit: 1 }, person)),
      attempt(() => run(readDraft, { ...target(as), siteId }, person)),
      run(listMedia, { ...target(as), limit: 200 }, person).then((m) => m.items as MediaItem[]),
      run(listForms, target(as), person).then((f) => f.forms),
    ]);
    if (!site.ok || !draft.ok)
      return sendStudioPage(
        res,
        person,
        {
          title: 'Site not found',
          current: '/builder',
          body: problemNotice(site.ok ? (draft as { error: DomainError }).error : site.error),
        },
        404,
      );
    const s = site.value.site;
    const doc = draft.value.document as DraftDocument;
    const revision = draft.value.revision;
    const pageIndex = Math.min(
      Math.max(0, state.page ?? (Number(req.query.page ?? 0) || 0)),
      doc.pages.length - 1,
    );
    const page = doc.pages[pageIndex]!;
    const previewPath = state.preview ?? (typeof req.query.preview === 'string' ? req.query.preview : '');
    const framed = PREVIEW_PATH.test(previewPath) ? previewOrigin + previewPath : null;
    const editAction = href(`/builder/sites/${siteId}/draft`, undefined);
    const hiddenEdit = (edit: string, extra: Record<string, string | number> = {}) =>
      html`${csrfField(person.csrf)}${asField(as)}<input type="hidden" name="revision" value="${revision}" />
        <input type="hidden" name="edit" value="${edit}" /><input
          type="hidden"
          name="page"
          value="${pageIndex}"
        />
        ${framed ? html`<input type="hidden" name="preview" value="${previewPath}" />` : ''}${Object.entries(
          extra,
        ).map(([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}" />`)}`;

    /** The picker's upload: the picture goes to the library, and the editor comes back with it listed. */
    const uploadHere = (type: string) =>
      html`<form
        method="post"
        action="/builder/media"
        enctype="multipart/form-data"
        class="stack upload-here"
        data-upload
      >
        ${csrfField(person.csrf)}${asField(as)}<input type="hidden" name="site" value="${siteId}" /><input
          type="hidden"
          name="page"
          value="${pageIndex}"
        />
        <div class="field drop-zone">
          <label for="upload-${type}">Upload a new picture to your library</label>
          <input id="upload-${type}" name="file" type="file" accept="${MEDIA_TYPES}" required />
        </div>
        ${field({ name: 'alt', label: 'Alt text of the new picture', maxlength: 300 })}
        <div class="actions">${button('Upload picture')}</div>
      </form>`;
    const thumb = (mediaId: string, size = 128) =>
      `/api/builder/media/thumbnail?${new URLSearchParams({ mediaId, size: String(size), ...(as && { targetAgentId: as }) }).toString()}`;
    const ctxForBlocks: BlockContext = { media, forms, thumb };

    /** The tools of one block (move, delete), at its place: the page's blocks or a column's. */
    const blockTools = (p: Place, count: number, columns: number) => {
      const at = placeFields(p);
      const n = p.column === undefined ? p.block : p.inner!;
      const what = placeName(p);
      const move = (direction: string, label: string, disabled: boolean) =>
        html`<form class="inline" method="post" action="${editAction}">
          ${hiddenEdit('block.move', { ...at, direction })}<button
            type="submit"
            class="btn"
            ${disabled ? raw(' disabled') : ''}
          >
            ${label}<span class="visually-hidden"> ${what}</span>
          </button>
        </form>`;
      return html`<div class="cluster block-tools">
        ${move('up', 'Move up', n === 0)} ${move('down', 'Move down', n === count - 1)}
        ${p.column !== undefined ? html`${move('left', 'To the column before', p.column === 0)} ${move('right', 'To the column after', p.column === columns - 1)}` : ''}
        <form class="inline" method="post" action="${editAction}" data-confirm="Delete this block?">
          ${hiddenEdit('block.delete', at)}<button type="submit" class="btn btn-danger">
            Delete<span class="visually-hidden"> ${what}</span>
          </button>
        </form>
      </div>`;
    };

    /** The "Add …" sections: on the page, or (with `column`) inside a column of the block at `block`. */
    const addBlocks = (inColumn?: { block: number; column: number }) =>
      (inColumn ? LEAF_BLOCKS : ADDABLE_BLOCKS).map((type) => {
        const needs =
          type === 'image' || type === 'gallery'
            ? media.length > 0
            : type === 'form'
              ? forms.length > 0
              : true;
        const key = inColumn ? `new-${inColumn.block}-${inColumn.column}-${type}` : `new-${type}`;
        return html`<details class="add-block">
          <summary>
            Add
            ${BLOCK_NAMES[type]}${inColumn ? html`<span class="visually-hidden"> to column ${inColumn.column + 1}</span>` : ''}
          </summary>
          ${
            needs
              ? html`<form method="post" action="${editAction}" class="stack">
                  ${hiddenEdit('block.add', { type, ...(inColumn ?? {}) })}
                  ${blockFields(defaultBlock(type, ctxForBlocks), ctxForBlocks, key)}
                  <div class="actions">${button(`Add ${BLOCK_NAMES[type]}`, { kind: 'primary' })}</div>
                </form>`
              : type === 'form'
                ? html`<p class="small">
                    You have no forms yet. <a href="${href('/builder/forms', as)}">Create a form</a> first.
                  </p>`
                : html`<p class="small">Your picture library is empty: upload one here first.</p>`
          }
          ${!inColumn && (type === 'image' || type === 'gallery') ? uploadHere(type) : ''}
        </details>`;
      });

    /** One block as the editor lists it: its name and summary, its edit form, its tools. */
    const blockCard = (b: DraftBlock | LeafBlock, p: Place, count: number, columns = 0): Html => {
      const nested = p.column !== undefined;
      const id = nested ? `block-${p.block}-${p.column}-${p.inner}` : `block-${p.block}`;
      const n = (nested ? p.inner! : p.block) + 1;
      const preview =
        b.type === 'image'
          ? html`<img class="block-thumb" src="${thumb(b.mediaId)}" alt="" width="64" height="64" />`
          : b.type === 'gallery'
            ? html`<span class="block-thumbs"
                >${b.items.slice(0, 4).map((it) => html`<img class="block-thumb" src="${thumb(it.mediaId)}" alt="" width="40" height="40" />`)}</span
              >`
            : '';
      const heading = nested ? html`<h5>${n}. ${blockName(b)}</h5>` : html`<h3>${n}. ${blockName(b)}</h3>`;
      const edit =
        b.type === 'columns'
          ? columnsEditor(b, p.block)
          : html`<form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('block.update', placeFields(p))} ${blockFields(b, ctxForBlocks, id)}
              <div class="actions">${button('Save block', { kind: 'primary' })}</div>
            </form>`;
      return html`<li class="block card${nested ? ' nested' : ''}" id="${id}">
        <div class="block-head">${preview}<div>${heading}<span class="small muted">${blockSummary(b, ctxForBlocks)}</span></div></div>
        <details${b.type === 'columns' && openColumns === p.block && !nested ? raw(' open') : ''}>
          <summary>${b.type === 'columns' ? 'Edit these columns' : 'Edit this block'}<span class="visually-hidden"> ${placeName(p)}</span></summary>
          ${edit}
        </details>
        ${blockTools(p, count, columns)}
      </li>`;
    };

    /** A columns block's editor: how many columns, and each column's blocks, edited like the page's. */
    const columnsEditor = (b: Extract<DraftBlock, { type: 'columns' }>, block: number): Html =>
      html`<form method="post" action="${editAction}" class="cluster columns-count">
          ${hiddenEdit('block.update', { block })}
          ${selectField({
            name: 'count',
            label: 'Number of columns',
            value: String(b.columns.length),
            options: [
              ['2', 'Two'],
              ['3', 'Three'],
              ['4', 'Four'],
            ],
            hint: 'With fewer columns, the blocks of those taken away move to the last one kept.',
          })}
          ${button('Save', {})}
        </form>
        <div class="columns-edit">
          ${b.columns.map(
            (c, ci) =>
              html`<section class="column-edit" aria-labelledby="col-${block}-${ci}">
                <h4 id="col-${block}-${ci}">Column ${ci + 1}</h4>
                ${
                  c.blocks.length
                    ? html`<ol class="blocks plain stack">
                        ${c.blocks.map((inner, j) =>
                          blockCard(
                            inner,
                            { block, column: ci, inner: j },
                            c.blocks.length,
                            b.columns.length,
                          ),
                        )}
                      </ol>`
                    : emptyState('Nothing in this column yet.')
                }
                <details class="add-in-column">
                  <summary>Add a block to column ${ci + 1}</summary>
                  <div class="stack">${addBlocks({ block, column: ci })}</div>
                </details>
              </section>`,
          )}
        </div>`;

    const openColumns =
      state.openColumns ?? (typeof req.query.open === 'string' ? Number(req.query.open) : -1);
    const blockCards = page.blocks.map((b, i) =>
      blockCard(b, { block: i }, page.blocks.length, b.type === 'columns' ? b.columns.length : 0),
    );

    const addBlock = addBlocks();

    const body = html`${noticeOf(req)} ${s.suspendedReason !== null ? suspendedNotice(s.suspendedReason) : ''}
      ${state.error ? editError(state.error) : ''} ${siteTabs(siteId, as, 'edit')}
      ${publicationBar({
        siteId,
        as,
        csrf: person.csrf,
        state: site.value.state,
        liveUrl: site.value.liveUrl,
        servedVersionId: site.value.publication?.versionId ?? null,
        draftRevision: revision,
        rolledBack:
          site.value.publication !== null &&
          site.value.versions[0]?.versionId !== site.value.publication.versionId,
        publishLink: true,
      })}
      <p class="small jump"><a href="#preview-h">Jump to the preview</a></p>
      <div class="editor">
        <div class="editor-main stack">
          <nav class="pages card" aria-labelledby="pages-h">
            <h2 id="pages-h">Pages</h2>
            <ul class="plain">
              ${doc.pages.map(
                (p, i) =>
                  html`<li>
                    <a
                      href="${href(`/builder/sites/${siteId}`, as, { page: String(i) })}"
                      ${i === pageIndex ? raw(' aria-current="page"') : ''}
                      >${p.title}</a
                    >
                    <code class="small">${p.path}</code>
                  </li>`,
              )}
            </ul>
            <details>
              <summary>Add a page</summary>
              <form method="post" action="${editAction}" class="stack">
                ${hiddenEdit('page.add')}
                ${field({ name: 'title', label: 'Page title', required: true, maxlength: 300 })}
                ${field({ name: 'path', label: 'Path', hint: 'Like /menu or /about/team: lower-case letters, digits and hyphens.', required: true, maxlength: 200 })}
                <label class="check"
                  ><input type="checkbox" name="nav" checked /> <span>Add it to the navigation</span></label
                >
                <div class="actions">${button('Add page', { kind: 'primary' })}</div>
              </form>
            </details>
          </nav>

          <section class="card" aria-labelledby="page-h">
            <h2 id="page-h">Page “${page.title}” <code class="small">${page.path}</code></h2>
            <details>
              <summary>Page title, path and description</summary>
              <form method="post" action="${editAction}" class="stack">
                ${hiddenEdit('page.update')}
                ${field({ name: 'title', label: 'Title', value: page.title, required: true, maxlength: 300 })}
                ${page.path === '/' ? '' : field({ name: 'path', label: 'Path', value: page.path, required: true, maxlength: 200, hint: 'Like /menu: lower-case letters, digits and hyphens. Navigation links to the old path follow it.' })}
                ${field({ name: 'description', label: 'Description', value: page.description ?? '', maxlength: 500, hint: 'Shown by search engines and link previews.' })}
                <div class="actions">${button('Save page', { kind: 'primary' })}</div>
              </form>
              <div class="cluster">
                <form class="inline" method="post" action="${editAction}">
                  ${hiddenEdit('page.move', { direction: 'up' })}<button
                    type="submit"
                    class="btn"
                    ${pageIndex === 0 ? raw(' disabled') : ''}
                  >
                    Move this page up
                  </button>
                </form>
                <form class="inline" method="post" action="${editAction}">
                  ${hiddenEdit('page.move', { direction: 'down' })}<button
                    type="submit"
                    class="btn"
                    ${pageIndex === doc.pages.length - 1 ? raw(' disabled') : ''}
                  >
                    Move this page down
                  </button>
                </form>
                ${page.path === '/' ? '' : html`<form class="inline" method="post" action="${editAction}" data-confirm="Delete this page and its blocks?">${hiddenEdit('page.delete')}${button('Delete this page', { kind: 'danger' })}</form>`}
              </div>
              <p class="small muted">
                The order of pages is the order the site lists them in; the navigation has its own order
                below.
              </p>
            </details>
            <h3>Blocks</h3>
            ${
              page.blocks.length
                ? html`<ol class="blocks plain stack">
                    ${blockCards}
                  </ol>`
                : emptyState('This page has no blocks yet: add one below.')
            }
            <h3>Add a block</h3>
            <div class="stack">${addBlock}</div>
          </section>

          <section class="card" aria-labelledby="nav-h">
            <h2 id="nav-h">Navigation and footer</h2>
            <form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('navigation.update')}
              ${field({ name: 'items', label: 'Navigation links', type: 'textarea', value: linesOf(doc.navigation.items), hint: 'One link a line: label | /path or https://…' })}
              <div class="actions">${button('Save navigation')}</div>
            </form>
            <form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('footer.update')}
              ${field({ name: 'markdown', label: 'Footer text', type: 'textarea', value: doc.footer.markdown, hint: 'Markdown: **bold**, *italic*, [links](https://…).' })}
              ${field({ name: 'links', label: 'Footer links', type: 'textarea', value: linesOf(doc.footer.links), hint: 'One link a line: label | URL' })}
              <div class="actions">${button('Save footer')}</div>
            </form>
          </section>

          ${card(
            'Site settings',
            html`<form method="post" action="/builder/sites/${siteId}/settings" class="stack">
              ${csrfField(person.csrf)}${asField(as)}
              ${field({ name: 'title', label: 'Site title', value: s.title, required: true, maxlength: 120 })}
              ${selectField({
                name: 'theme',
                label: 'Theme',
                value: s.theme,
                options: [
                  ['classic', 'Classic (warm, serif)'],
                  ['modern', 'Modern (clean, sans-serif)'],
                  ['dark', 'Dark'],
                ],
              })}
              ${field({ name: 'description', label: 'Description', type: 'textarea', value: s.description, maxlength: 500 })}
              ${field({ name: 'language', label: 'Language', value: s.language, hint: 'A language tag such as en, fr-CA.', maxlength: 35 })}
              ${selectField({ name: 'socialImageId', label: 'Picture when the site is shared', value: s.socialImageId ?? '', hint: 'Shown with the title and description when a page is shared in a chat or on social media (1200×630 works best). From your pictures.', options: [['', 'None'], ...media.map((m) => [m.mediaId, m.alt || m.filename] as const)] })}
              ${selectField({ name: 'faviconId', label: 'Icon in the browser tab', value: s.faviconId ?? '', hint: 'A small square picture (the favicon). From your pictures.', options: [['', 'None'], ...media.map((m) => [m.mediaId, m.alt || m.filename] as const)] })}
              <div class="actions">${button('Save settings')}</div>
            </form>`,
            { id: 'settings' },
          )}
        </div>

        <aside class="editor-preview card" aria-labelledby="preview-h">
          <h2 id="preview-h">Preview</h2>
          <p class="small muted">
            Draft revision <span data-field="revision">${revision}</span>. The preview shows exactly the bytes
            the site will serve once published.
          </p>
          ${
            framed
              ? html`<iframe
                    class="preview-frame"
                    src="${framed}"
                    title="Preview of ${page.title}"
                    data-preview
                  ></iframe>
                  <p class="small">
                    <a href="${framed}" target="_blank" rel="noopener">Open the preview in a new tab</a>
                  </p>`
              : emptyState('Save a change or ask for a preview to see the page here.')
          }
          <form method="post" action="/builder/sites/${siteId}/preview" class="cluster">
            ${csrfField(person.csrf)}${asField(as)}
            <input type="hidden" name="page" value="${pageIndex}" />${button('Refresh preview')}
            ${linkButton(href(`/builder/sites/${siteId}/publish`, as), 'Publish…', 'primary')}
          </form>
        </aside>
      </div>`;
    sendStudioPage(
      res,
      person,
      {
        title: s.title,
        current: '/builder',
        body,
        csp: { frameSrc: [previewOrigin] },
        scripts: ['studio-builder.js'],
      },
      state.status ?? 200,
    );
  }

  /** Makes a preview of the page and answers its path on the sites' origin. */
  async function previewOf(person: PagePerson, as: string | undefined, siteId: string, pagePath: string) {
    const p = await run(previewSite, { ...target(as), siteId, path: pagePath }, person);
    return new URL(p.previewUrl).pathname;
  }

  r.get('/builder/sites/:siteId', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (person && siteId) await editorPage(req, res, person, siteId);
  });

  r.post('/builder/sites/:siteId/draft', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const saved = await attempt(async () => {
      const current = await run(readDraft, { ...target(as), siteId }, person);
      const doc = applyDraftEdit(current.document as DraftDocument, body);
      // Saved over the revision the form was shown with: someone else's save since is builder.draft_stale.
      await run(
        saveDraft,
        { ...target(as), siteId, revision: Number(str(body, 'revision')), document: doc },
        person,
      );
      return doc;
    });
    const edit = str(body, 'edit');
    if (!saved.ok)
      return editorPage(req, res, person, siteId, {
        error: saved.error,
        status: statusOfError(saved.error),
        page: Number(str(body, 'page')) || 0,
        preview: str(body, 'preview'),
        ...(str(body, 'column') !== '' && { openColumns: Number(str(body, 'block')) }),
      });
    const doc = saved.value;
    let page = Number(str(body, 'page')) || 0;
    if (edit === 'page.add') page = doc.pages.length - 1;
    if (edit === 'page.delete') page = 0;
    if (edit === 'page.move') {
      const from = Number(str(body, 'page')) || 0;
      const to = str(body, 'direction') === 'up' ? from - 1 : from + 1;
      page = to >= 0 && to < doc.pages.length ? to : from;
    }
    const preview = await attempt(() => previewOf(person, as, siteId, doc.pages[page]?.path ?? '/'));
    // An edit inside a columns block comes back with that block's editor open, scrolled to it.
    const block = str(body, 'block');
    const inColumns = block !== '' && doc.pages[page]?.blocks[Number(block)]?.type === 'columns';
    redirectWithNotice(
      res,
      href(`/builder/sites/${siteId}`, as, {
        page: String(page),
        preview: preview.ok ? preview.value : undefined,
        open: inColumns ? block : undefined,
      }),
      'saved',
    );
  });

  r.post('/builder/sites/:siteId/preview', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const page = Number(str(req.body as FormBody, 'page')) || 0;
    const made = await attempt(async () => {
      const draft = await run(readDraft, { ...target(as), siteId }, person);
      return previewOf(person, as, siteId, (draft.document as DraftDocument).pages[page]?.path ?? '/');
    });
    if (!made.ok)
      return editorPage(req, res, person, siteId, { error: made.error, status: statusOfError(made.error) });
    res.redirect(303, href(`/builder/sites/${siteId}`, as, { page: String(page), preview: made.value }));
  });

  r.post('/builder/sites/:siteId/settings', ...posts, async (req, res) => {
    const person = await postingPerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (!person || !siteId) return;
    const as = actingAs(req);
    const body = req.body as FormBody;
    const done = await attempt(() =>
      run(
        updateSite,
        {
          ...target(as),
          siteId,
          title: str(body, 'title'),
          theme: str(body, 'theme'),
          description: str(body, 'description'),
          language: str(body, 'language'),
          // Absent from the form (an older page): left as it is; empty: none.
          ...('socialImageId' in body && { socialImageId: str(body, 'socialImageId') || null }),
          ...('faviconId' in body && { faviconId: str(body, 'faviconId') || null }),
        },
        person,
      ),
    );
    if (!done.ok)
      return editorPage(req, res, person, siteId, { error: done.error, status: statusOfError(done.error) });
    redirectWithNotice(res, href(`/builder/sites/${siteId}`, as), 'settings');
  });
}
