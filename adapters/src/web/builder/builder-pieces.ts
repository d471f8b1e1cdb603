// What several of the builder's pages show: the notices, the tabs, a suspended site's notice, an
// editing refusal in words, a template's placeholders left to replace, and the picture library's item.
import { type DomainError, type TemplatePlaceholder } from '@tributary/domain';
import { badge, csrfField, linkButton, notice, problemNotice } from '../components.js';
import { html, raw, type Html } from '../html.js';
import { asField, href, tabs } from './studio-support.js';

export type MediaItem = {
  mediaId: string;
  filename: string;
  alt: string | null;
  width: number;
  height: number;
  uploadedAt: string;
};

/** What the picture inputs offer to pick (the server decides the type from the bytes in any case). */
export const MEDIA_TYPES =
  'image/jpeg,image/png,image/webp,image/gif,image/avif,image/heic,image/heif,.heic,.heif';

/** Fixed texts for `?notice=`: the query names one, never carries text. */
export const NOTICES: Record<string, string> = {
  saved: 'Saved. The preview shows the draft as it is now.',
  created: 'Site created.',
  settings: 'Site settings saved.',
  undone: 'Undone: the draft is back as it was before its last change. Redo brings the change back.',
  redone: 'Redone: the change is back in the draft.',
  published: 'Published: the site now serves this draft. Open it with “View site”.',
  unchanged: 'Already published: this draft is what the site serves.',
  rolledback: 'Rolled back: the site serves the version you chose. Your draft was left as it was.',
  restored: 'Restored: the draft now holds the version you chose. Publish it when you are ready.',
  // A restore of the version online: the draft is the live site again, so there is nothing to publish.
  restoredlive: 'Restored: the draft now matches the live site; nothing to publish.',
  claimed: 'The address is yours.',
  released: 'Address released.',
  bound: 'Domain connected: add the DNS records below at your DNS host, then press Re-check now.',
  checked: 'Checked the DNS records.',
  unbound: 'Domain disconnected: the site no longer answers at it.',
  uploaded: 'Picture uploaded.',
  pictureadded: 'Picture uploaded and added to the page.',
  formadded: 'Form created and added to the page. Change its fields on the Forms page.',
  uploadednotadded:
    'Picture uploaded to your library, but the page changed meanwhile: add it from “Add image”.',
  mediadeleted: 'Picture deleted.',
};

export const REASONS: Record<string, string> = {
  record_missing:
    'a record is missing: the TXT record that proves the domain is yours, or the record pointing the name at this instance.',
  wrong_value: 'there is a TXT record, but none holds the value given below for this domain.',
  points_elsewhere: 'the name points somewhere else (another host or address).',
  resolver_error: 'our DNS resolver did not answer; the state stays as it was until the next check.',
};

/** The editor's message for a refused save: someone else saving first gets its own explanation. */
export function editError(e: DomainError): Html {
  if (e.code === 'builder.draft_stale') {
    const current = (e.details as { currentRevision?: number } | undefined)?.currentRevision;
    return notice(
      'error',
      html`<p>
          <strong>Someone else saved this draft first.</strong> (Or you did, in another tab.) Your change was
          not saved yet. Where you were typing, what you typed is kept in its form, with their version beside
          it: save to keep yours, or take theirs. Anything else below shows the draft as it is now.
        </p>
        <p class="small muted">
          Error code:
          <code data-error-code="${e.code}">${e.code}</code
          >${current !== undefined ? ` · draft revision ${String(current)}` : ''}
        </p>`,
    );
  }
  const issues = (e.details as { issues?: { path: string; message: string }[] } | undefined)?.issues;
  return html`${problemNotice(e, 'Not saved.')}${
    issues?.length
      ? html`<ul class="small">
          ${issues.slice(0, 10).map((i) => html`<li>${whereInDraft(i.path)}: ${i.message} <small class="code">${i.path}</small></li>`)}
        </ul>`
      : ''
  }`;
}

const PARTS: Record<string, string> = {
  pages: 'page',
  blocks: 'block',
  items: 'item',
  columns: 'column',
  navigation: 'menu link',
  fields: 'field',
};

/** A path in the draft ("draft.pages.0.blocks.2.text") as a person names the place: "page 1, block 3, text". */
export function whereInDraft(path: string): string {
  const words: string[] = [];
  const parts = path.split(/[./]/).filter((p) => p && p !== 'draft');
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = parts[i + 1];
    if (PARTS[part] && next !== undefined && /^\d+$/.test(next)) {
      words.push(`${PARTS[part]} ${Number(next) + 1}`);
      i++;
    } else words.push(part.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase());
  }
  return words.join(', ') || 'the draft';
}

/** How many of a template's leftover placeholders the editor names (the rest are counted). */
const PLACEHOLDERS_NAMED = 8;

/** A placeholder's text as the list names it: its first line without Markdown marks, at most 60 characters. */
function firstWords(text: string): string {
  const [first, ...rest] = text.split('\n');
  const line = first!.replace(/^[-*>\s]+/, '').replace(/\*+/g, '');
  // A long line is cut after its last whole word that fits.
  const cut = line.length > 60 ? line.slice(0, 60).replace(/\s+\S*$/, '') : line;
  return cut !== line || rest.length > 0 ? `${cut.replace(/[.,;:]$/, '')}…` : cut;
}

/**
 * The editor's warning while a starter template's placeholders are left in the draft
 * (templatePlaceholders): each named by where it is — a page, the menu, the footer — a text by its
 * first words, a link by its label and where it goes. Nothing refuses them; the owner decides.
 */
export function placeholderNotice(found: readonly TemplatePlaceholder[]): Html | '' {
  if (found.length === 0) return '';
  const where = (p: TemplatePlaceholder['place']) =>
    p === 'footer' ? 'In the footer' : p === 'navigation' ? 'In the menu' : `On “${p.title}”`;
  const item = (p: TemplatePlaceholder) =>
    p.kind === 'text'
      ? html`<li>${where(p.place)}: the text “${firstWords(p.text)}”</li>`
      : html`<li>
          ${where(p.place)}: the link “${p.text}”, which goes to
          <code>${(p.url ?? '').replace(/^mailto:/, '')}</code>
        </li>`;
  const more = found.length - PLACEHOLDERS_NAMED;
  return notice(
    'warning',
    html`<p data-field="placeholders">
        <strong>Some of the template’s example words are still here.</strong> Replace them with your own
        before you publish (or keep one if it is right for you).
      </p>
      <details ${found.length <= 3 ? raw('open') : ''}>
        <summary>Where they are (${String(found.length)})</summary>
        <ul>
          ${found.slice(0, PLACEHOLDERS_NAMED).map(item)}
          ${more > 0 ? html`<li>and ${String(more)} more</li>` : ''}
        </ul>
      </details>
      ${
        found.some((p) => p.kind === 'link')
          ? html`<p data-field="placeholder-links">
              Links to <code>example.org</code> go nowhere a visitor can use: put your own email address or
              web address in their place.
            </p>`
          : ''
      }`,
  );
}

export function suspendedNotice(reason: string): Html {
  return notice(
    'error',
    html`<p>
        <strong>This site is suspended by the operators of this instance.</strong> Visitors see a notice
        instead of it, and it cannot be published until they lift the suspension.
      </p>
      <p>Their reason: <q data-field="suspended-reason">${reason}</q></p>`,
  );
}

export function builderTabs(as: string | undefined, current: 'sites' | 'media' | 'forms'): Html {
  return tabs([
    { href: href('/builder', as), label: 'Sites', current: current === 'sites' },
    { href: href('/builder/media', as), label: 'Pictures', current: current === 'media' },
    { href: href('/builder/forms', as), label: 'Forms and submissions', current: current === 'forms' },
  ]);
}

export function siteTabs(
  siteId: string,
  as: string | undefined,
  current: 'edit' | 'publish' | 'address',
): Html {
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

/** Where a site's draft stands against what it serves, as read_site answers it. */
export type PublicationState = 'never_published' | 'live' | 'unpublished_changes';

/** The state as a badge a person reads: "Live", "Unpublished changes", "Never published". */
export function stateBadge(state: PublicationState): Html {
  if (state === 'live') return badge('Live', 'ok');
  if (state === 'unpublished_changes') return badge('Unpublished changes', 'warn');
  return badge('Never published', 'neutral');
}

/**
 * The bar over the editor and the publish page: the state, "View site" once it is online, and when the
 * draft differs from what is served, the choice after a rollback: restore the live version into the
 * draft, or keep the draft (then the next publish puts it online, and this says so).
 */
export function publicationBar(o: {
  siteId: string;
  as: string | undefined;
  csrf: string;
  state: PublicationState;
  liveUrl: string | null;
  servedVersionId: string | null;
  draftRevision: number;
  /**
   * The draft holds the changes the site was rolled back from (read_site's draftHoldsRolledBack: not
   * restored since, or a restore undone): offer the restore. Once restored, later edits are plain
   * unpublished changes.
   */
  rolledBack?: boolean;
  /** On the editor: a link to publishing. */
  publishLink?: boolean;
}): Html {
  const view = o.liveUrl ? html`<a class="btn" href="${o.liveUrl}" data-field="view-site">View site</a>` : '';
  const publish = o.publishLink
    ? linkButton(href(`/builder/sites/${o.siteId}/publish`, o.as), 'Publish…', 'primary')
    : '';
  const line = html`<p class="cluster publication-state" data-state="${o.state}">
    ${stateBadge(o.state)}
    <span class="small"
      >${
        o.state === 'live'
          ? 'The site online is exactly this draft.'
          : o.state === 'unpublished_changes'
            ? 'The draft differs from the site online: visitors see it only once you publish.'
            : 'Nobody sees this site until you publish it.'
      }</span
    >
    ${view} ${o.state !== 'live' ? publish : ''}
  </p>`;
  if (o.state !== 'unpublished_changes' || !o.servedVersionId || !o.rolledBack) return line;
  return html`${line}
  ${notice(
    'warning',
    html`<p data-rolled-back-warning>
        <strong>Unpublished changes: your draft holds the changes you rolled back.</strong> The site online
        does not show them, but publishing now would put the draft — with what you rolled back — online again.
      </p>
      <div class="cluster">
        <form method="post" action="/builder/sites/${o.siteId}/restore" class="inline">
          ${csrfField(o.csrf)}${asField(o.as)}<input
            type="hidden"
            name="versionId"
            value="${o.servedVersionId}"
          /><input type="hidden" name="revision" value="${String(o.draftRevision)}" />
          <button class="btn btn-primary" type="submit">Restore the live version into the draft</button>
        </form>
        ${linkButton(href(`/builder/sites/${o.siteId}`, o.as), 'Keep my draft')}
      </div>`,
  )}`;
}
