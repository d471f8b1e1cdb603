// What several of the builder's pages show: the notices, the tabs, a suspended site's notice, an
// editing refusal in words, and the picture library's item.
import { type DomainError } from '@tributary/domain';
import { badge, csrfField, linkButton, notice, problemNotice } from '../components.js';
import { html, type Html } from '../html.js';
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
export const MEDIA_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif';

/** Fixed texts for `?notice=`: the query names one, never carries text. */
export const NOTICES: Record<string, string> = {
  saved: 'Saved. The preview shows the draft as it is now.',
  created: 'Site created.',
  settings: 'Site settings saved.',
  published: 'Published: the site now serves this draft. Open it with “View site”.',
  unchanged: 'Already published: this draft is what the site serves.',
  rolledback: 'Rolled back: the site serves the version you chose. Your draft was left as it was.',
  restored: 'Restored: the draft now holds the version you chose. Publish it when you are ready.',
  claimed: 'The address is yours.',
  released: 'Address released.',
  bound: 'Domain bound: create the DNS records below, then check.',
  checked: 'Checked the DNS records.',
  unbound: 'Domain unbound.',
  uploaded: 'Picture uploaded.',
  mediadeleted: 'Picture deleted.',
};

export const REASONS: Record<string, string> = {
  record_missing:
    'a record is missing: the TXT record that proves the domain is yours, or the record pointing the name at this instance.',
  wrong_value: 'there is a TXT record, but none holds this binding’s token.',
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
  /** The site serves an older publish than its newest (it was rolled back): offer the restore. */
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
    html`<p>
        <strong>Unpublished changes: your draft still has the newer text.</strong> The site online shows the
        version you went back to, but publishing now would put the draft — with whatever you rolled back from
        — online again.
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
