// The builder's pages (docs/web.md#builder): the person's sites, the draft editor with its preview pane,
// publishing and versions, the address and custom domains, the media library and forms with their
// submissions. Server-rendered forms that post and redirect, so all of it works without JavaScript;
// every change runs the same catalogue operation the REST routes and MCP tools run.
import {
  domainError,
  invalid,
  type DomainError,
  type DraftBlock,
  type DraftDocument,
  type FormField,
  type LeafBlock,
} from '@tributary/domain';
import {
  bindDomain,
  checkDomain,
  claimAddress,
  createSite,
  deleteMedia,
  listDomains,
  listForms,
  listMedia,
  listSites,
  previewSite,
  publishSite,
  readDraft,
  readSite,
  releaseAddress,
  rollbackSite,
  saveDraft,
  unbindDomain,
  updateSite,
  uploadMedia,
} from '@tributary/services';
import { Router, type Request, type Response } from 'express';
import { readMultipartUpload, runOperation, sameOrigin, type HttpContext } from '../../http/index.js';
import {
  badge,
  button,
  card,
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
  noticeFrom,
  statusOfError,
  pageFormBody,
  postingPerson,
  redirectWithNotice,
  requirePerson,
  type PagePerson,
} from '../page-session.js';
import { ADDABLE_BLOCKS, LEAF_BLOCKS, applyDraftEdit, linesOf, str, type FormBody } from './draft-edits.js';
import { builderFormRoutes } from './form-pages.js';
import {
  actingAs,
  asField,
  attempt,
  href,
  isUuid,
  ownerChooser,
  ownersOf,
  sendStudioPage,
  tabs,
  target,
} from './studio-support.js';

export interface BuilderPageOptions {
  /** SITES_DOMAIN: previews are framed from `preview.<sitesDomain>`, the sites' origin. */
  sitesDomain: string;
}

type MediaItem = {
  mediaId: string;
  filename: string;
  alt: string | null;
  width: number;
  height: number;
  uploadedAt: string;
};

/** What the picture inputs offer to pick (the server decides the type from the bytes in any case). */
const MEDIA_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/** Fixed texts for `?notice=`: the query names one, never carries text. */
const NOTICES: Record<string, string> = {
  saved: 'Saved. The preview shows the draft as it is now.',
  created: 'Site created.',
  settings: 'Site settings saved.',
  published: 'Published: the site now serves this draft.',
  unchanged: 'Already published: this draft is what the site serves.',
  rolledback: 'Rolled back: the site serves the version you chose.',
  claimed: 'The address is yours.',
  released: 'Address released.',
  bound: 'Domain bound: create the DNS records below, then check.',
  checked: 'Checked the DNS records.',
  unbound: 'Domain unbound.',
  uploaded: 'Picture uploaded.',
  mediadeleted: 'Picture deleted.',
};

/** The preview's path on the sites' origin (never trusted beyond this shape; the site server checks the MAC). */
const PREVIEW_PATH = /^\/sites\/_preview\/[A-Za-z0-9._~-]{1,300}\/(?:[a-z0-9-]+\/){0,4}$/;

export function builderPages(ctx: HttpContext, o: BuilderPageOptions): Router {
  const r = Router();
  const base = new URL(ctx.baseUrl);
  /** Where previews are framed from: `<scheme>://preview.<SITES_DOMAIN>[:port]`. */
  const previewOrigin = `${base.protocol}//preview.${o.sitesDomain}${base.port ? `:${base.port}` : ''}`;
  const posts = pageFormBody(ctx);
  const run = <I, O>(op: Parameters<typeof runOperation<I, O>>[1], input: unknown, person: PagePerson) =>
    runOperation(ctx, op, input, person.principal).then((x) => x.result);

  const noticeOf = (req: Request) => noticeFrom(req, NOTICES);

  // ---------------------------------------------------------------- the person's sites
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
                ${s.suspendedReason !== null ? badge('suspended', 'danger') : s.publishedVersionId ? badge('published', 'ok') : badge('not published', 'warn')}
              </h2>
              <p class="small muted">
                Draft revision
                ${s.draftRevision}${s.publishedAt ? html` · published ${when(s.publishedAt)}` : ''}
              </p>
              <p class="cluster">
                ${linkButton(href(`/builder/sites/${s.siteId}`, as), 'Edit', 'primary')}
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
          ${field({ name: 'label', label: 'Address (optional)', hint: `Lower-case letters, digits and hyphens: the site answers at <label>.${o.sitesDomain}.`, maxlength: 63 })}
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
    const made = await attempt(() =>
      run(createSite, { ...target(as), title: str(body, 'title'), ...(label && { label }) }, person),
    );
    if (!made.ok) return sitesPage(req, res, person, made.error, 400);
    redirectWithNotice(res, href(`/builder/sites/${made.value.siteId}`, as), 'created');
  });

  // ---------------------------------------------------------------- the editor
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

  const siteIdOf = (req: Request, res: Response) => {
    const id = req.params.siteId;
    if (isUuid(id)) return id;
    res.redirect(303, '/builder');
    return null;
  };

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
        },
        person,
      ),
    );
    if (!done.ok)
      return editorPage(req, res, person, siteId, { error: done.error, status: statusOfError(done.error) });
    redirectWithNotice(res, href(`/builder/sites/${siteId}`, as), 'settings');
  });

  // ---------------------------------------------------------------- publish, versions, rollback
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

  // ---------------------------------------------------------------- address and custom domains
  async function addressPage(
    req: Request,
    res: Response,
    person: PagePerson,
    siteId: string,
    error?: DomainError,
  ) {
    const as = actingAs(req);
    const [read, domains] = await Promise.all([
      attempt(() => run(readSite, { ...target(as), siteId, limit: 1 }, person)),
      attempt(() => run(listDomains, { ...target(as), siteId }, person)),
    ]);
    if (!read.ok)
      return sendStudioPage(
        res,
        person,
        { title: 'Site not found', current: '/builder', body: problemNotice(read.error) },
        404,
      );
    const { site, address } = read.value;
    const bindings = domains.ok ? domains.value.domains : [];
    const stateBadge = (state: string) =>
      state === 'verified'
        ? badge('verified: served', 'ok')
        : state === 'failed'
          ? badge('failed', 'danger')
          : badge('pending', 'warn');
    const body = html`${noticeOf(req)}
    ${site.suspendedReason !== null ? suspendedNotice(site.suspendedReason) : ''}
    ${error ? problemNotice(error) : ''} ${siteTabs(siteId, as, 'address')}
    ${card(
      'Free address',
      address
        ? html`<p>
              The site answers at <a href="${address.url}" data-field="address-url">${address.url}</a> and, on
              this instance, at <a href="${address.pathUrl}">${address.pathUrl}</a>.
            </p>
            <p class="small muted">
              Claimed ${when(address.claimedAt)}. Releasing it holds the name back for you for a while, so
              links others keep never lead to a stranger's site.
            </p>
            ${postButton({ action: `/builder/sites/${siteId}/address/release`, csrf: person.csrf, label: 'Release this address', kind: 'danger', fields: as ? { as } : {}, confirm: 'Release this address?' })}`
        : html`<form method="post" action="/builder/sites/${siteId}/address" class="stack">
            ${csrfField(person.csrf)}${asField(as)}
            ${field({ name: 'label', label: 'Address', hint: `Lower-case letters, digits and hyphens (3–63). Leave it empty for one made from the title. The site will answer at <address>.${o.sitesDomain}.`, maxlength: 63 })}
            <div class="actions">${button('Claim address', { kind: 'primary' })}</div>
          </form>`,
      { id: 'address' },
    )}
    ${card(
      'Custom domains',
      html`${
          bindings.length
            ? html`<ul class="plain stack">
                ${bindings.map(
                  (d) =>
                    html`<li class="domain card" data-domain="${d.domain}">
                      <h3>${d.domain} ${stateBadge(d.state)}</h3>
                      ${
                        d.state !== 'verified' && d.reason
                          ? notice(
                              'warning',
                              html`<p>
                                  <strong>Why it is not served yet:</strong> ${REASONS[d.reason] ?? d.reason}
                                </p>
                                ${d.detail ? html`<p class="small">${d.detail}</p>` : ''}
                                <p class="small muted">Code: <code>${d.reason}</code></p>`,
                            )
                          : ''
                      }
                      ${d.state === 'pending' && !d.reason ? html`<p class="small">Not checked yet. Create the records below, then check.</p>` : ''}
                      <h4>DNS records to create at your DNS host</h4>
                      <ul class="records plain">
                        ${d.records.map(
                          (rec) =>
                            html`<li class="record">
                              ${keyValues([
                                ['Type', rec.type],
                                ['Name', html`<code class="break" data-record-name>${rec.name}</code>`],
                                ['Value', html`<code class="break">${rec.value}</code>`],
                                [
                                  'Why',
                                  rec.purpose === 'challenge'
                                    ? 'proves the domain is yours'
                                    : 'points the name at this instance',
                                ],
                              ])}
                            </li>`,
                        )}
                      </ul>
                      <p class="small muted">
                        Bound ${when(d.boundAt)} · last checked
                        ${when(d.checkedAt, 'never')}${d.verifiedAt ? html` · verified ${when(d.verifiedAt)}` : ''}
                      </p>
                      <p class="cluster">
                        ${postButton({ action: `/builder/sites/${siteId}/domains/check`, csrf: person.csrf, label: html`Check now<span class="visually-hidden"> ${d.domain}</span>`, kind: 'primary', fields: { domain: d.domain, ...(as && { as }) } })}
                        ${postButton({ action: `/builder/sites/${siteId}/domains/unbind`, csrf: person.csrf, label: html`Unbind<span class="visually-hidden"> ${d.domain}</span>`, kind: 'danger', fields: { domain: d.domain, ...(as && { as }) }, confirm: 'Stop serving the site at this domain?' })}
                      </p>
                    </li>`,
                )}
              </ul>`
            : emptyState('No custom domain yet.')
        }
        <form method="post" action="/builder/sites/${siteId}/domains" class="stack">
          ${csrfField(person.csrf)}${asField(as)}
          ${field({ name: 'domain', label: 'Add a domain', hint: 'For example www.example.org. You will get the DNS records to create at your DNS host.', maxlength: 253 })}
          <div class="actions">${button('Bind domain')}</div>
        </form>`,
      { id: 'domains' },
    )}`;
    sendStudioPage(
      res,
      person,
      { title: `Address of ${site.title}`, current: '/builder', body },
      error ? statusOfError(error) : 200,
    );
  }

  r.get('/builder/sites/:siteId/address', async (req, res) => {
    const person = await requirePerson(ctx, req, res);
    const siteId = person && siteIdOf(req, res);
    if (person && siteId) await addressPage(req, res, person, siteId);
  });

  const addressAction = (
    path: string,
    noticeKey: string,
    call: (person: PagePerson, as: string | undefined, siteId: string, body: FormBody) => Promise<unknown>,
  ) =>
    r.post(`/builder/sites/:siteId/${path}`, ...posts, async (req, res) => {
      const person = await postingPerson(ctx, req, res);
      const siteId = person && siteIdOf(req, res);
      if (!person || !siteId) return;
      const as = actingAs(req);
      const done = await attempt(() => call(person, as, siteId, req.body as FormBody));
      if (!done.ok) return addressPage(req, res, person, siteId, done.error);
      redirectWithNotice(res, href(`/builder/sites/${siteId}/address`, as), noticeKey);
    });
  addressAction('address', 'claimed', (p, as, siteId, b) => {
    const label = str(b, 'label').trim();
    return run(claimAddress, { ...target(as), siteId, ...(label && { label }) }, p);
  });
  addressAction('address/release', 'released', (p, as, siteId) =>
    run(releaseAddress, { ...target(as), siteId }, p),
  );
  addressAction('domains', 'bound', (p, as, siteId, b) =>
    run(bindDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );
  addressAction('domains/check', 'checked', (p, as, siteId, b) =>
    run(checkDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );
  addressAction('domains/unbind', 'unbound', (p, as, siteId, b) =>
    run(unbindDomain, { ...target(as), siteId, domain: str(b, 'domain') }, p),
  );

  // ---------------------------------------------------------------- the media library
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
            <label for="media-file">Picture (JPEG, PNG, WebP, GIF or AVIF)</label>
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
          when(m.uploadedAt),
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
        fields: new Set(['csrf', 'as', 'alt', 'site', 'page']),
        tooLarge: () =>
          domainError('builder.media_too_large', 'too_large', `a picture is at most ${maxBytes} bytes`, {
            maxBytes,
          }),
        malformed: (message) => invalid('builder.media_upload_malformed', message),
      }),
    );
    if (!form.ok) return mediaPage(req, res, signedIn, form.error);
    req.body = form.value.fields;
    const person = await postingPerson(ctx, req, res);
    if (!person) return;
    const as = actingAs(req);
    const { file, filename, fields } = form.value;
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
    if (!done.ok) return mediaPage(req, res, person, done.error);
    redirectWithNotice(
      res,
      // From the editor's picker: back to the page being edited, the picture now in the picker.
      isUuid(fields.site) && fields.page !== undefined
        ? href(`/builder/sites/${fields.site}`, as, { page: String(Number(fields.page) || 0) })
        : href('/builder/media', as, { site: isUuid(fields.site) ? fields.site : undefined }),
      'uploaded',
    );
  });

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

  r.use(builderFormRoutes(ctx));
  return r;
}

// ---------------------------------------------------------------- pieces

const REASONS: Record<string, string> = {
  record_missing:
    'a record is missing: the TXT record that proves the domain is yours, or the record pointing the name at this instance.',
  wrong_value: 'there is a TXT record, but none holds this binding’s token.',
  points_elsewhere: 'the name points somewhere else (another host or address).',
  resolver_error: 'our DNS resolver did not answer; the state stays as it was until the next check.',
};

/** The editor's message for a refused save: someone else saving first gets its own explanation. */
function editError(e: DomainError): Html {
  if (e.code === 'builder.draft_stale') {
    const current = (e.details as { currentRevision?: number } | undefined)?.currentRevision;
    return notice(
      'error',
      html`<p>
          <strong>Someone else saved this draft first.</strong> It is at revision ${String(current ?? '?')}
          now, so your change was not saved. The editor below shows the draft as it is now: make your change
          again.
        </p>
        <p class="small muted">Error code: <code data-error-code="${e.code}">${e.code}</code></p>`,
    );
  }
  const issues = (e.details as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  return html`${problemNotice(e, 'Not saved.')}${
    issues?.length
      ? html`<ul class="small">
          ${issues.slice(0, 10).map((i) => html`<li><code>${i.path}</code>: ${i.message}</li>`)}
        </ul>`
      : ''
  }`;
}

function suspendedNotice(reason: string): Html {
  return notice(
    'error',
    html`<p>
        <strong>This site is suspended by the operators of this instance.</strong> Visitors see a notice
        instead of it, and it cannot be published until they lift the suspension.
      </p>
      <p>Their reason: <q data-field="suspended-reason">${reason}</q></p>`,
  );
}

function builderTabs(as: string | undefined, current: 'sites' | 'media' | 'forms'): Html {
  return tabs([
    { href: href('/builder', as), label: 'Sites', current: current === 'sites' },
    { href: href('/builder/media', as), label: 'Pictures', current: current === 'media' },
    { href: href('/builder/forms', as), label: 'Forms and submissions', current: current === 'forms' },
  ]);
}

function siteTabs(siteId: string, as: string | undefined, current: 'edit' | 'publish' | 'address'): Html {
  return html`<p class="small"><a href="${href('/builder', as)}">All sites</a></p>
    ${tabs([
      { href: href(`/builder/sites/${siteId}`, as), label: 'Edit', current: current === 'edit' },
      {
        href: href(`/builder/sites/${siteId}/publish`, as),
        label: 'Publish and versions',
        current: current === 'publish',
      },
      {
        href: href(`/builder/sites/${siteId}/address`, as),
        label: 'Address and domains',
        current: current === 'address',
      },
    ])}`;
}

const BLOCK_NAMES: Record<string, string> = {
  heading: 'a heading',
  text: 'text',
  image: 'a picture',
  gallery: 'a gallery',
  button: 'a button',
  links: 'a list of links',
  form: 'a form',
  divider: 'a divider',
  columns: 'columns',
};
const blockName = (b: DraftBlock | LeafBlock) =>
  ({
    heading: 'Heading',
    text: 'Text',
    image: 'Picture',
    gallery: 'Gallery',
    button: 'Button',
    links: 'Links',
    form: 'Form',
    divider: 'Divider',
    columns: 'Columns',
  })[b.type];

interface BlockContext {
  media: MediaItem[];
  forms: { formId: string; name: string; fields: FormField[] }[];
  /** The URL of a library picture's thumbnail (GET /api/builder/media/thumbnail). */
  thumb: (mediaId: string, size?: number) => string;
}

/** Where a block is: the page's `block`, or block `inner` of column `column` of the columns block at `block`. */
interface Place {
  block: number;
  column?: number;
  inner?: number;
}
const placeFields = (p: Place): Record<string, number> =>
  p.column === undefined ? { block: p.block } : { block: p.block, column: p.column, inner: p.inner! };
/** A block's place in words, for screen readers' button names. */
const placeName = (p: Place) =>
  p.column === undefined
    ? `block ${p.block + 1}`
    : `block ${p.inner! + 1} of column ${p.column + 1} in block ${p.block + 1}`;

/**
 * The picture picker: each picture of the library as a radio button with its thumbnail (a `<select>`
 * cannot show pictures), the one chosen first.
 */
function mediaPicker(c: BlockContext, chosen: string): Html {
  return html`<fieldset class="field media-picker">
    <legend>Picture</legend>
    <span class="hint">From your picture library.</span>
    <div class="thumbs">
      ${c.media.map(
        (m) =>
          html`<label class="thumb">
            <input
              type="radio"
              name="mediaId"
              value="${m.mediaId}"
              ${m.mediaId === chosen ? raw(' checked') : ''}
              required
            />
            <img src="${c.thumb(m.mediaId)}" alt="" width="96" height="96" loading="lazy" />
            <span class="small">${m.filename} <span class="muted">(${m.width}×${m.height})</span></span>
          </label>`,
      )}
    </div>
  </fieldset>`;
}

function blockSummary(b: DraftBlock | LeafBlock, c: BlockContext): string {
  const cut = (s: string) => (s.length > 80 ? `${s.slice(0, 79)}…` : s);
  switch (b.type) {
    case 'heading':
      return cut(b.text);
    case 'text':
      return cut(b.markdown);
    case 'image':
      return c.media.find((m) => m.mediaId === b.mediaId)?.filename ?? b.alt;
    case 'gallery':
      return `${b.items.length} pictures`;
    case 'button':
      return `${b.label} → ${b.url}`;
    case 'links':
      return b.items.map((i) => i.label).join(', ');
    case 'form':
      return c.forms.find((f) => f.formId === b.formId)?.name ?? 'a form';
    case 'columns':
      return `${b.columns.length} columns`;
    default:
      return '';
  }
}

function defaultBlock(type: string, c: BlockContext): DraftBlock {
  switch (type) {
    case 'heading':
      return { type, level: 2, text: '' };
    case 'text':
      return { type, markdown: '' };
    case 'image':
      return { type, mediaId: c.media[0]?.mediaId ?? '', alt: c.media[0]?.alt ?? '' };
    case 'gallery':
      return { type, items: [] as never };
    case 'button':
      return { type, label: '', url: '', style: 'primary' };
    case 'links':
      return { type, items: [] as never };
    case 'form':
      return { type, formId: c.forms[0]?.formId ?? '' };
    case 'columns':
      return { type, columns: [{ blocks: [] }, { blocks: [] }] };
    default:
      return { type: 'divider' };
  }
}

/** The fields of a block's form (the same for adding and editing). */
function blockFields(b: DraftBlock | LeafBlock, c: BlockContext, key: string): Html {
  switch (b.type) {
    case 'heading':
      return html`${selectField({
        name: 'level',
        label: 'Level',
        value: String(b.level),
        options: [
          ['1', 'Page title (largest)'],
          ['2', 'Section'],
          ['3', 'Sub-section'],
          ['4', 'Small'],
        ],
      })}
      ${field({ name: 'text', label: 'Heading text', value: b.text, required: true, maxlength: 300 })}`;
    case 'text':
      return field({
        name: 'markdown',
        label: 'Text',
        type: 'textarea',
        value: b.markdown,
        hint: 'Markdown: **bold**, *italic*, [a link](https://…), - lists, > quotes. No HTML.',
        attrs: 'rows="6"',
      });
    case 'image':
      return html`${mediaPicker(c, b.mediaId)}
      ${field({ name: 'alt', label: 'Alt text (what the picture shows)', value: b.alt, required: true, maxlength: 300 })}
      ${field({ name: 'caption', label: 'Caption (optional)', value: b.caption ?? '', maxlength: 300 })}
      ${field({ name: 'link', label: 'Link (optional)', value: b.link ?? '', hint: 'https://… or /a-page' })}`;
    case 'gallery': {
      const chosen = new Map(b.items.map((i) => [i.mediaId, i]));
      // The gallery's own pictures first, in its order; then the rest of the library.
      const ordered = [
        ...b.items.flatMap((i) => c.media.filter((m) => m.mediaId === i.mediaId)),
        ...c.media.filter((m) => !chosen.has(m.mediaId)),
      ];
      return html`<fieldset class="field">
        <legend>Pictures</legend>
        <span class="hint">Ticked pictures are shown, in this order.</span>
        ${ordered.map(
          (m) =>
            html`<div class="gallery-item">
              <label class="check thumb-check"
                ><input
                  type="checkbox"
                  name="mediaIds"
                  value="${m.mediaId}"
                  ${chosen.has(m.mediaId) ? raw(' checked') : ''}
                />
                <img src="${c.thumb(m.mediaId)}" alt="" width="64" height="64" loading="lazy" />
                <span>${m.filename}</span></label
              >
              ${field({ name: `alt-${m.mediaId}`, label: `Alt text for ${m.filename}`, value: chosen.get(m.mediaId)?.alt ?? m.alt ?? '', maxlength: 300 })}
              ${field({ name: `caption-${m.mediaId}`, label: `Caption for ${m.filename} (optional)`, value: chosen.get(m.mediaId)?.caption ?? '', maxlength: 300 })}
            </div>`,
        )}
      </fieldset>`;
    }
    case 'button':
      return html`${field({ name: 'label', label: 'Button text', value: b.label, required: true, maxlength: 300 })}
      ${field({ name: 'url', label: 'Link', value: b.url, required: true, hint: 'https://…, mailto:… or /a-page' })}
      ${selectField({
        name: 'style',
        label: 'Style',
        value: b.style,
        options: [
          ['primary', 'Primary'],
          ['secondary', 'Secondary'],
        ],
      })}`;
    case 'links':
      return field({
        name: 'items',
        label: 'Links',
        type: 'textarea',
        value: linesOf(b.items),
        hint: 'One a line: label | https://… or /a-page',
        required: true,
      });
    case 'form':
      return selectField({
        name: 'formId',
        label: 'Form',
        value: b.formId,
        options: c.forms.map((f) => [f.formId, f.name] as const),
        hint: 'Visitors’ answers arrive under Forms and submissions.',
      });
    case 'divider':
      return html`<p class="small muted">A line between sections; nothing to set.</p>`;
    case 'columns':
      return html`${selectField({
        name: 'count',
        label: 'Number of columns',
        value: String(b.columns.length),
        options: [
          ['2', 'Two'],
          ['3', 'Three'],
          ['4', 'Four'],
        ],
        hint: 'Side by side on a wide screen, one under the other on a phone. Add blocks to each column once it is made.',
      })}`;
    default:
      return html`<p class="small muted">${key}</p>`;
  }
}
