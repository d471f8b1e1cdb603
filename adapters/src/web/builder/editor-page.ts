// The draft editor (/builder/sites/:siteId): pages and blocks, the preview pane, the site's settings.
import {
  bytesInWords,
  templatePlaceholders,
  type DomainError,
  type DraftBlock,
  type DraftDocument,
  type LeafBlock,
} from '@tributary/domain';
import {
  listForms,
  listHistory,
  listMedia,
  previewSite,
  readDraft,
  readSite,
  redoDraft,
  saveDraft,
  undoDraft,
  updateSite,
} from '@tributary/services';
import type { MediaLimits } from '@tributary/services';
import type { Request, Response, Router } from 'express';
import {
  button,
  card,
  csrfField,
  emptyState,
  field,
  linkButton,
  notice,
  problemNotice,
  selectField,
  when,
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
import { blockWords, draftChangeWords } from './draft-change-words.js';
import { actingAs, asField, attempt, href, isUuid, sendStudioPage, target } from './studio-support.js';
import type { BuilderPage } from './builder-page.js';
import {
  conflictPanel,
  editBase,
  keptFor,
  partUnchanged,
  theirsOfBlock,
  typedBlock,
} from './edit-keeping.js';
import {
  MEDIA_TYPES,
  editError,
  placeholderNotice,
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

/** "New form" refused (back from POST /builder/forms with its code): what went wrong, in words. */
function formProblemOf(req: Request): Html | '' {
  const code = typeof req.query.formproblem === 'string' ? req.query.formproblem : '';
  if (!/^[a-z_]+\.[a-z_]+$/.test(code)) return '';
  return problemNotice(
    { code: code as DomainError['code'], message: 'give it a name of 1 to 100 characters and try again.' },
    'The form was not created.',
  );
}

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
    /** A refused post: its form shows what was typed (beside the other change, when `conflict`). */
    kept?: FormBody;
    conflict?: boolean;
    /** An undo refused because it would take back a restore: asked again, in words. */
    stepConfirm?: { versionPublishedAt: string; restoredAt: string };
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
      attempt(() => run(readDraft, { ...target(as), siteId, lastChanged: true }, person)),
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
    // A preview given (by a save's redirect) is framed only when it was made from the revision shown here:
    // a URL kept from an earlier save (a reload while a later save was out) would show an older draft.
    const givenRevision = Number(req.query.previewRevision ?? NaN);
    let previewPath =
      state.preview ??
      (typeof req.query.preview === 'string' && givenRevision === revision ? req.query.preview : '');
    let previewRevision = PREVIEW_PATH.test(previewPath) ? revision : undefined;
    // Otherwise it is made now, from the draft as it is (on opening, after an upload or a settings save,
    // after a refusal). A refusal (a suspended site) leaves the pane empty.
    if (!PREVIEW_PATH.test(previewPath)) {
      const made = await attempt(() => previewOf(person, as, siteId, page.path));
      if (made.ok) ({ path: previewPath, revision: previewRevision } = made.value);
    }
    const framed = PREVIEW_PATH.test(previewPath) ? previewOrigin + previewPath : null;
    // Where a picture uploaded here goes: after the block last worked on (the script follows the focus).
    const lastWorked = draft.value.lastChanged?.[page.path] ?? null;
    const kept = state.kept;
    /** The hidden base of a form that edits text (edit-keeping.ts). */
    const baseOf = (edit: string, place: Record<string, number> = {}) =>
      editBase(doc, { edit, page: pageIndex, ...place });
    const takeTheirs = (anchor: string) =>
      `${href(`/builder/sites/${siteId}`, as, { page: String(pageIndex) })}#${anchor}`;
    const editAction = href(`/builder/sites/${siteId}/draft`, undefined);
    const hiddenEdit = (edit: string, extra: Record<string, string | number> = {}) =>
      html`${csrfField(person.csrf)}${asField(as)}<input type="hidden" name="revision" value="${revision}" />
        <input type="hidden" name="edit" value="${edit}" /><input
          type="hidden"
          name="page"
          value="${pageIndex}"
        />
        ${Object.entries(extra).map(
          ([k, v]) => html`<input type="hidden" name="${k}" value="${String(v)}" />`,
        )}`;

    /** The picker's upload: the picture goes to the library and, in the same post, into this page. */
    const uploadHere = (type: 'image' | 'gallery') => uploadForm(type, ctx.services.builder.media.limits);
    const uploadForm = (type: 'image' | 'gallery', limits: MediaLimits) =>
      html`<form
        method="post"
        action="/builder/media"
        enctype="multipart/form-data"
        class="stack upload-here"
        data-upload-here
        data-max-bytes="${limits.maxBytes}"
      >
        ${csrfField(person.csrf)}${asField(as)}<input type="hidden" name="site" value="${siteId}" /><input
          type="hidden"
          name="page"
          value="${pageIndex}"
        />
        <div class="field drop-zone">
          <label for="upload-${type}"
            >${type === 'image' ? 'Or upload a new picture (pick it or drop it here)' : 'Or upload a new picture as a gallery'}</label
          >
          <input
            id="upload-${type}"
            name="file"
            type="file"
            accept="${MEDIA_TYPES}"
            required
            aria-describedby="upload-${type}-limits"
          />
          <p class="hint small" id="upload-${type}-limits">
            JPEG, PNG, WebP, GIF, AVIF or HEIC (iPhone), at most ${bytesInWords(limits.maxBytes)};
            ${limits.longEdge ? `larger photos are scaled down to ${limits.longEdge} pixels on their long side.` : ''}
          </p>
        </div>
        ${field({
          name: 'alt',
          label: 'Alt text of the new picture',
          maxlength: 300,
          // A picture block needs its alt text (as its own form asks): the upload waits for it.
          required: type === 'image',
          hint:
            type === 'image'
              ? 'What the picture shows, for people who cannot see it. Needed before it is uploaded.'
              : 'What the picture shows, for people who cannot see it.',
        })}
        <input type="hidden" name="after" value="${lastWorked ?? ''}" />
        <label class="check"
          ><input type="checkbox" name="add" value="${type}" checked />
          <span
            >Add it to this page as soon as it is uploaded,
            <span data-upload-where
              >${
                lastWorked === null
                  ? 'at the end'
                  : `after block ${lastWorked + 1}, ${blockWords(page.blocks[lastWorked]!)} (the one you last worked on)`
              }</span
            ></span
          ></label
        >
        <p class="small upload-status" data-upload-status role="status" aria-live="polite"></p>
        <div class="actions">${button('Upload picture')}</div>
      </form>`;
    /** A new form made from the form block: created with a starter set of fields and put on this page. */
    const newFormHere = (some: boolean) =>
      html`<form method="post" action="/builder/forms" class="stack new-form-here">
        ${csrfField(person.csrf)}${asField(as)}<input type="hidden" name="site" value="${siteId}" /><input
          type="hidden"
          name="page"
          value="${pageIndex}"
        /><input type="hidden" name="revision" value="${revision}" />
        ${field({ name: 'name', label: some ? 'Or make a new form: its name' : 'New form: its name', hint: 'It starts with name, email and message fields; change them later on the Forms page.', required: true, maxlength: 100 })}
        <div class="actions">
          ${button('Create the form and add it', { kind: some ? undefined : 'primary' })}
        </div>
      </form>`;
    const thumb = (mediaId: string, size = 128) =>
      `/api/builder/media/thumbnail?${new URLSearchParams({ mediaId, size: String(size), ...(as && { targetAgentId: as }) }).toString()}`;
    const ctxForBlocks: BlockContext = {
      media,
      forms,
      thumb,
      formHref: (formId) => href(`/builder/forms/${formId}`, as),
    };

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
        const formProblem =
          !inColumn && type === 'form'
            ? formProblemOf(req)
            : !inColumn && type === 'image' && req.query.uploadproblem === 'alt'
              ? notice(
                  'error',
                  html`<p data-field="upload-problem">
                    <strong>The picture was not uploaded:</strong> write its alt text — what the picture
                    shows, for people who cannot see it — then pick it and upload it again.
                  </p>`,
                )
              : '';
        return html`<details
          class="add-block"
          ${inColumn ? '' : html`id="add-${type}"`}${formProblem ? raw(' open') : ''}
        >
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
                ? html`<p class="small">You have no forms yet: make one here.</p>`
                : html`<p class="small">Your picture library is empty: upload one here.</p>`
          }
          ${type === 'image' ? formProblem : ''}
          ${!inColumn && (type === 'image' || type === 'gallery') ? uploadHere(type) : ''}
          ${type === 'form' ? formProblem : ''}${!inColumn && type === 'form' ? newFormHere(forms.length > 0) : ''}
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
      const typed = keptFor(kept, 'block.update', { page: pageIndex, ...placeFields(p) });
      const edit =
        b.type === 'columns'
          ? columnsEditor(b, p.block)
          : html`<form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('block.update', { ...placeFields(p), base: baseOf('block.update', placeFields(p)) })}
              ${typed && state.conflict ? conflictPanel(theirsOfBlock(b), takeTheirs(id), 'Save block') : ''}
              ${blockFields(typedBlock(b, typed), ctxForBlocks, id)}
              <div class="actions">${button('Save block', { kind: 'primary' })}</div>
            </form>`;
      // The drag handle (builder-reorder.js shows it): a page's own blocks only, moved by move_block.
      const handle = nested
        ? ''
        : html`<button
            type="button"
            class="btn drag-handle"
            data-handle
            hidden
            aria-describedby="reorder-help"
          >
            <span aria-hidden="true">⠿</span><span class="visually-hidden">Move ${placeName(p)}</span>
          </button>`;
      return html`<li
        class="block card${nested ? ' nested' : ''}"
        id="${id}"
        ${nested ? '' : html`data-words="${blockWords(b)}"`}
      >
        <div class="block-head">${handle}${preview}<div>${heading}<span class="small muted">${blockSummary(b, ctxForBlocks)}</span></div></div>
        <details${(b.type === 'columns' && openColumns === p.block && !nested) || typed ? raw(' open') : ''}>
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
    const typedPage = keptFor(kept, 'page.update', { page: pageIndex });
    const typedNav = keptFor(kept, 'navigation.update');
    const typedFooter = keptFor(kept, 'footer.update');

    const stepped = state.stepConfirm
      ? null
      : await stepNotice(req, person, as, siteId, site.value.draftHoldsRolledBack);
    const body = html`${stepped ? '' : noticeOf(req)}
      ${s.suspendedReason !== null ? suspendedNotice(s.suspendedReason) : ''}
      ${state.error ? editError(state.error) : ''} ${siteTabs(siteId, as, 'edit')}
      ${placeholderNotice(templatePlaceholders(doc))}
      ${publicationBar({
        siteId,
        as,
        csrf: person.csrf,
        state: site.value.state,
        liveUrl: site.value.liveUrl,
        servedVersionId: site.value.publication?.versionId ?? null,
        draftRevision: revision,
        rolledBack: site.value.draftHoldsRolledBack,
        publishLink: true,
      })}
      <p class="small jump"><a href="#preview-h">Jump to the preview</a></p>
      <div class="editor">
        <div class="editor-main stack">
          <div class="edit-bar cluster" data-edit-bar>
            ${(['undo', 'redo'] as const).map(
              (step) =>
                html`<form
                  class="inline"
                  method="post"
                  action="${`/builder/sites/${siteId}/${step}`}"
                  data-step="${step}"
                >
                  ${csrfField(person.csrf)}${asField(as)}<input
                    type="hidden"
                    name="revision"
                    value="${revision}"
                  /><input type="hidden" name="page" value="${pageIndex}" /><button
                    type="submit"
                    class="btn"
                    ${(step === 'undo' ? draft.value.canUndo : draft.value.canRedo) ? '' : raw(' disabled')}
                  >
                    ${step === 'undo' ? 'Undo' : 'Redo'}<span class="visually-hidden">
                      ${step === 'undo' ? 'the last change to the draft' : 'what was undone'}</span
                    >
                  </button>
                </form>`,
            )}
            <p class="small muted save-status" data-save-status role="status" aria-live="polite"></p>
          </div>
          ${stepped ?? ''}
          ${
            state.stepConfirm
              ? restoreConfirm(state.stepConfirm, {
                  siteId,
                  as,
                  csrf: person.csrf,
                  revision,
                  page: pageIndex,
                })
              : ''
          }
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
            <details class="add-page">
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
            <details${typedPage ? raw(' open') : ''}>
              <summary>Page title, path and description</summary>
              <form method="post" action="${editAction}" class="stack">
                ${hiddenEdit('page.update', { base: baseOf('page.update') })}
                ${typedPage && state.conflict ? conflictPanel(`${page.title}\n${page.path}\n${page.description ?? ''}`.trim(), takeTheirs('page-h'), 'Save page') : ''}
                ${field({ name: 'title', label: 'Title', value: typedPage ? str(typedPage, 'title') : page.title, required: true, maxlength: 300 })}
                ${page.path === '/' ? '' : field({ name: 'path', label: 'Path', value: typedPage ? str(typedPage, 'path') : page.path, required: true, maxlength: 200, hint: 'Like /menu: lower-case letters, digits and hyphens. Navigation links to the old path follow it.' })}
                ${field({ name: 'description', label: 'Description', value: typedPage ? str(typedPage, 'description') : (page.description ?? ''), maxlength: 500, hint: 'Shown by search engines and link previews.' })}
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
                ? html`<p class="small muted" id="reorder-help">
                      To change the order, use Move up and Move down<span data-reorder-more hidden
                        >, drag a block by its handle, or focus the handle and press Alt+↑ or Alt+↓</span
                      >.
                    </p>
                    <ol
                      class="blocks plain stack"
                      data-reorder
                      data-site="${siteId}"
                      data-page="${page.path}"
                      ${as ? html`data-as="${as}"` : ''}
                    >
                      ${blockCards}
                    </ol>
                    <p class="visually-hidden" role="status" aria-live="polite" data-reorder-status></p>`
                : emptyState('This page has no blocks yet: add one below.')
            }
            <h3>Add a block</h3>
            <div class="stack">${addBlock}</div>
          </section>

          <section class="card" aria-labelledby="nav-h">
            <h2 id="nav-h">Navigation and footer</h2>
            <form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('navigation.update', { base: baseOf('navigation.update') })}
              ${typedNav && state.conflict ? conflictPanel(linesOf(doc.navigation.items), takeTheirs('nav-h'), 'Save navigation') : ''}
              ${field({ name: 'items', label: 'Navigation links', type: 'textarea', value: typedNav ? str(typedNav, 'items') : linesOf(doc.navigation.items), hint: 'One link a line: label | /a-page, a web address (https://…) or an email address' })}
              <div class="actions">${button('Save navigation')}</div>
            </form>
            <form method="post" action="${editAction}" class="stack">
              ${hiddenEdit('footer.update', { base: baseOf('footer.update') })}
              ${typedFooter && state.conflict ? conflictPanel(`${doc.footer.markdown}\n${linesOf(doc.footer.links)}`.trim(), takeTheirs('nav-h'), 'Save footer') : ''}
              ${field({ name: 'markdown', label: 'Footer text', type: 'textarea', value: typedFooter ? str(typedFooter, 'markdown') : doc.footer.markdown, hint: 'Markdown: **bold**, *italic*, [links](https://…).' })}
              ${field({ name: 'links', label: 'Footer links', type: 'textarea', value: typedFooter ? str(typedFooter, 'links') : linesOf(doc.footer.links), hint: 'One link a line: label | a web address (https://…), an email address or /a-page' })}
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
          <div class="cluster preview-widths" data-preview-widths hidden>
            <button type="button" class="btn" data-width="phone" aria-pressed="false">Phone</button>
            <button type="button" class="btn" data-width="desktop" aria-pressed="true">Desktop</button>
          </div>
          <p class="small muted" data-draft-revision="${revision}">
            Preview of your draft, saved ${when(draft.value.updatedAt)}: exactly what visitors will see once
            you publish.
          </p>
          ${
            framed && previewRevision !== revision
              ? html`<p class="notice notice-warning small" data-preview-differs>
                  The draft changed while this page was made: the preview shows an earlier save than the
                  editor.
                  <a href="${href(`/builder/sites/${siteId}`, as, { page: String(pageIndex) })}"
                    >Show the latest</a
                  >
                </p>`
              : ''
          }
          ${
            framed
              ? html`<iframe
                    class="preview-frame"
                    src="${framed}"
                    title="Preview of ${page.title}"
                    data-preview
                    data-preview-revision="${previewRevision ?? ''}"
                  ></iframe>
                  <p class="small">
                    <a href="${framed}" target="_blank" rel="noopener">Open the preview in a new tab</a>
                  </p>`
              : emptyState('Save a change or ask for a preview to see the page here.')
          }
          <form method="post" action="/builder/sites/${siteId}/preview" class="cluster" data-refresh-preview>
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
        scripts: ['studio-builder.js', 'builder-reorder.js', 'studio-media.js', 'studio-editor.js'],
      },
      state.status ?? 200,
    );
  }

  /**
   * After an undo or a redo (`?notice=undone|redone&stepFrom&stepTo`, with `stepRestore` when the step
   * took back or made again a restore, `stepOnline=left|back` when it left or reached what the site
   * serves): what it changed, in words, and the draft it went back or forward to, with its time. The
   * draft as it was on both sides is read from its history (read_draft with `revision`), a restore from
   * the site's history; what cannot be read leaves the plain notice. Shown under the edit bar, where the
   * button was pressed; `data-step-short` is the bar's own short line of it (studio-editor.js).
   */
  async function stepNotice(
    req: Request,
    person: PagePerson,
    as: string | undefined,
    siteId: string,
    holdsRolledBack: boolean,
  ): Promise<Html | null> {
    const step = req.query.notice;
    const from = Number(req.query.stepFrom);
    const to = Number(req.query.stepTo);
    if ((step !== 'undone' && step !== 'redone') || !Number.isInteger(from) || !Number.isInteger(to))
      return null;
    const undid = step === 'undone';
    const restoreId = typeof req.query.stepRestore === 'string' ? req.query.stepRestore : '';
    const draftAt = (revision: number) =>
      attempt(() => run(readDraft, { ...target(as), siteId, revision }, person));
    const [before, after, restore] = await Promise.all([
      draftAt(from),
      draftAt(to),
      isUuid(restoreId) ? restoreOf(person, as, siteId, restoreId) : null,
    ]);
    if (!before.ok || !after.ok) return null;
    const online = req.query.stepOnline;
    const onlineWords =
      online === 'left'
        ? undid
          ? ' Your site online still has this change: the draft no longer matches it, and publishing now would take the change off the site.'
          : ' The draft no longer matches your site online.'
        : online === 'back'
          ? ' The draft now matches your site online again.'
          : '';
    if (restore) {
      // A restore taken back or made again: said as what it is, not as the blocks it changed.
      const version = html`the version published on ${when(restore.versionPublishedAt)}`;
      const short = `${undid ? 'Undid' : 'Redid'}: restoring an earlier version into the draft`;
      return notice(
        undid ? 'warning' : 'success',
        html`<p data-field="step-words" data-step-short="${short}">
          ${
            undid
              ? html`<strong>Undid: restoring ${version} into the draft</strong> (you restored it on
                  ${when(restore.restoredAt)}).
                  ${
                    holdsRolledBack
                      ? 'The draft now holds the changes you had rolled back: publishing would put them online again.'
                      : 'The draft is back as it was before that restore.'
                  }
                  Redo puts the restore back.`
              : html`<strong>Redid: restoring ${version} into the draft.</strong> The draft again holds that
                  version.`
          }${onlineWords}
        </p>`,
      );
    }
    const b = before.value.document as DraftDocument;
    const a = after.value.document as DraftDocument;
    // An undo took back the change that led from the state now shown to the one left; a redo made it again.
    const what = undid ? draftChangeWords(a, b, 'older') : draftChangeWords(b, a, 'newer');
    const back = html`as it was at ${when(after.value.updatedAt)}`;
    const short = what ? `${undid ? 'Undid' : 'Redid'}: ${what}` : undid ? 'Undone' : 'Redone';
    const said = (done: string, word: string) =>
      what ? html`<strong>${done}:</strong> ${what}.` : html`<strong>${word}.</strong>`;
    return notice(
      'success',
      html`<p data-field="step-words" data-step-short="${short}">
        ${
          undid
            ? html`${said('Undid', 'Undone')} The draft is back ${back}; Redo brings the change back.`
            : html`${said('Redid', 'Redone')} The draft is again ${back}.`
        }${onlineWords}
      </p>`,
    );
  }

  /**
   * The site's latest restore of a version, from its history in one read however far back it is (null
   * when there is none, or the history cannot be read).
   */
  async function restoreOf(person: PagePerson, as: string | undefined, siteId: string, versionId: string) {
    const read = await attempt(() =>
      run(listHistory, { ...target(as), siteId, limit: 1, restoresOf: versionId }, person),
    );
    const entry = read.ok ? read.value.entries[0] : undefined;
    return entry ? { versionPublishedAt: entry.versionPublishedAt ?? entry.at, restoredAt: entry.at } : null;
  }

  /**
   * An undo that would take back a restore (409 builder.undo_takes_back_restore): what it would do, in
   * words, with **Undo the restore anyway** (the same undo, confirmed) and **Keep the restore**.
   */
  function restoreConfirm(
    c: NonNullable<EditorState['stepConfirm']>,
    o: { siteId: string; as: string | undefined; csrf: string; revision: number; page: number },
  ): Html {
    return notice(
      'warning',
      html`<div
        data-step-confirm
        data-step-short="Undo stopped: it would take back a restore"
        role="group"
        tabindex="-1"
        aria-labelledby="step-confirm-h"
      >
        <p>
          <strong id="step-confirm-h">Undo would take back a restore.</strong> On ${when(c.restoredAt)} you
          restored the version published on ${when(c.versionPublishedAt)} into the draft. Undoing that puts
          the draft back as it was before — with what the restore replaced, such as changes you had rolled
          back — and publishing would put those online again.
        </p>
        <div class="cluster">
          <form
            method="post"
            action="/builder/sites/${o.siteId}/undo"
            class="inline"
            data-step="undo-restore"
          >
            ${csrfField(o.csrf)}${asField(o.as)}<input
              type="hidden"
              name="revision"
              value="${o.revision}"
            /><input type="hidden" name="page" value="${o.page}" /><input
              type="hidden"
              name="undoRestore"
              value="1"
            />
            <button type="submit" class="btn">Undo the restore anyway</button>
          </form>
          ${linkButton(href(`/builder/sites/${o.siteId}`, o.as, { page: String(o.page) }), 'Keep the restore', 'primary')}
        </div>
        <p class="small muted">Error code: <code>builder.undo_takes_back_restore</code></p>
      </div>`,
    );
  }

  /** Makes a preview of the page: its path on the sites' origin and the draft revision it was made from. */
  async function previewOf(person: PagePerson, as: string | undefined, siteId: string, pagePath: string) {
    const p = await run(previewSite, { ...target(as), siteId, path: pagePath }, person);
    return { path: new URL(p.previewUrl).pathname, revision: p.draftRevision };
  }
  /** A made preview as the editor's URL carries it (the revision says which draft it shows). */
  const previewQuery = (p: { path: string; revision: number } | undefined) =>
    p ? { preview: p.path, previewRevision: String(p.revision) } : {};

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
      // Saved over the revision the form was shown with: someone else's save since is builder.draft_stale,
      // unless what this form edits is still as it was shown (their save changed something else): then
      // this edit goes on top of theirs (edit-keeping.ts).
      const shown = Number(str(body, 'revision'));
      const revision =
        shown !== current.revision && partUnchanged(current.document as DraftDocument, body)
          ? current.revision
          : shown;
      await run(saveDraft, { ...target(as), siteId, revision, document: doc }, person);
      return doc;
    });
    const edit = str(body, 'edit');
    if (!saved.ok)
      return editorPage(req, res, person, siteId, {
        error: saved.error,
        status: statusOfError(saved.error),
        page: Number(str(body, 'page')) || 0,
        // Made afresh from the draft as it is (the form's own may be older than the draft).
        preview: '',
        ...(str(body, 'column') !== '' && { openColumns: Number(str(body, 'block')) }),
        kept: body,
        conflict: saved.error.code === 'builder.draft_stale',
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
    // A page's block moved up or down comes back scrolled to where it went (with JavaScript it moves in
    // place, builder-reorder.js).
    const moved =
      edit === 'block.move' && block !== '' && str(body, 'column') === ''
        ? Number(block) + (str(body, 'direction') === 'up' ? -1 : 1)
        : -1;
    const to = href(`/builder/sites/${siteId}`, as, {
      page: String(page),
      ...previewQuery(preview.ok ? preview.value : undefined),
      open: inColumns ? block : undefined,
      notice: 'saved',
    });
    res.redirect(
      303,
      moved >= 0 && moved < (doc.pages[page]?.blocks.length ?? 0) ? `${to}#block-${moved}` : to,
    );
  });

  for (const [step, op] of [
    ['undo', undoDraft],
    ['redo', redoDraft],
  ] as const)
    r.post(`/builder/sites/:siteId/${step}`, ...posts, async (req, res) => {
      const person = await postingPerson(ctx, req, res);
      const siteId = person && siteIdOf(req, res);
      if (!person || !siteId) return;
      const as = actingAs(req);
      const body = req.body as FormBody;
      const page = Number(str(body, 'page')) || 0;
      const from = Number(str(body, 'revision'));
      // "Undo the restore anyway": the same undo, taking the restore back.
      const confirmed = step === 'undo' && str(body, 'undoRestore') === '1';
      const done = await attempt(async () => {
        const stepped = await run(
          op,
          { ...target(as), siteId, revision: from, ...(confirmed && { undoRestore: true }) },
          person,
        );
        const draft = await run(readDraft, { ...target(as), siteId }, person);
        const pages = (draft.document as DraftDocument).pages;
        const at = page < pages.length ? page : 0;
        return {
          at,
          stepped,
          preview: await previewOf(person, as, siteId, pages[at]!.path),
        };
      });
      if (!done.ok) {
        const d = done.error.details as { versionPublishedAt?: unknown; restoredAt?: unknown } | undefined;
        if (
          done.error.code === 'builder.undo_takes_back_restore' &&
          typeof d?.versionPublishedAt === 'string' &&
          typeof d.restoredAt === 'string'
        )
          return editorPage(req, res, person, siteId, {
            status: statusOfError(done.error),
            page,
            stepConfirm: { versionPublishedAt: d.versionPublishedAt, restoredAt: d.restoredAt },
          });
        return editorPage(req, res, person, siteId, {
          error: done.error,
          status: statusOfError(done.error),
          page,
        });
      }
      const { stepped } = done.value;
      redirectWithNotice(
        res,
        href(`/builder/sites/${siteId}`, as, {
          page: String(done.value.at),
          ...previewQuery(done.value.preview),
          // Revisions and ids only (never words): the page reads them and says what changed (stepNotice).
          stepFrom: String(from),
          stepTo: String(stepped.restoredRevision),
          stepRestore: stepped.restore?.versionId,
          stepOnline:
            stepped.wasOnline && !stepped.isOnline
              ? 'left'
              : !stepped.wasOnline && stepped.isOnline
                ? 'back'
                : undefined,
        }),
        step === 'undo' ? 'undone' : 'redone',
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
    res.redirect(
      303,
      href(`/builder/sites/${siteId}`, as, { page: String(page), ...previewQuery(made.value) }),
    );
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
