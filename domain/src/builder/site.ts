// The site aggregate (stream `site-<siteId>`: settings, versions, publication, suspension) and the draft
// aggregate (stream `draft-<siteId>`: the document; its stream version is the draft revision), with the
// deciders of the core builder commands. Pure: ids, owner and time arrive in the command.
import { z } from 'zod';
import type { NewEvent } from '../shared/envelope.js';
import { conflict, domainError, notFound } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import { DRAFT_LIMITS, type DraftDocument } from './draft-document.js';
import { starterTemplateDraft, type StarterTemplate } from './starter-templates.js';
import { SITE_THEMES, type BuilderEventData as EventData, type SiteTheme } from './events.js';
import { siteDraftStream, siteStream } from './site-streams.js';

// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
/** A site's settings as a caller gives them; the operations' input schemas use these. */
export const siteTitleSchema = z.string().trim().min(1).max(120).regex(NO_CONTROLS, 'no control characters');
export const siteDescriptionSchema = z
  .string()
  .trim()
  .max(DRAFT_LIMITS.descriptionChars)
  .regex(NO_CONTROLS, 'no control characters');
/** A BCP 47 language tag, loosely: `en`, `fr-CA`, `zh-Hant-TW`. */
export const siteLanguageSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/, 'a language tag such as en or fr-CA');
export const siteThemeSchema = z.enum(SITE_THEMES);

export const SITE_DEFAULTS = {
  theme: 'classic' as SiteTheme,
  description: '',
  language: 'en',
  socialImageId: null as string | null,
  faviconId: null as string | null,
};

export interface SiteVersionRef {
  versionId: string;
  manifestHash: string;
  draftRevision: number;
  /** Whether the site ever served it: a preview renders versions that never were live. */
  published: boolean;
}

export interface SiteState {
  exists: boolean;
  siteId?: string;
  ownerAgentId?: string;
  title?: string;
  isDefault?: boolean;
  theme?: SiteTheme;
  description?: string;
  language?: string;
  socialImageId?: string | null;
  faviconId?: string | null;
  /** Every version rendered for this site, oldest first; none is ever dropped. */
  versions: SiteVersionRef[];
  publishedVersionId?: string | undefined;
  suspendedReason?: string | undefined;
}

export const initialSiteState = (): SiteState => ({ exists: false, versions: [] });

export function evolveSite(state: SiteState, event: StoredEventLike): SiteState {
  switch (event.type) {
    case 'site.created': {
      const d = event.data as EventData<'site.created'>;
      return {
        ...state,
        exists: true,
        siteId: d.siteId,
        ownerAgentId: d.ownerAgentId,
        title: d.title,
        isDefault: d.isDefault,
        ...SITE_DEFAULTS,
      };
    }
    case 'site.settings_updated': {
      const d = event.data as EventData<'site.settings_updated'>;
      return {
        ...state,
        ...(d.title !== undefined && { title: d.title }),
        ...(d.theme !== undefined && { theme: d.theme }),
        ...(d.description !== undefined && { description: d.description }),
        ...(d.language !== undefined && { language: d.language }),
        ...(d.socialImageId !== undefined && { socialImageId: d.socialImageId }),
        ...(d.faviconId !== undefined && { faviconId: d.faviconId }),
      };
    }
    case 'site.version_created': {
      const d = event.data as EventData<'site.version_created'>;
      return {
        ...state,
        versions: [
          ...state.versions,
          {
            versionId: d.versionId,
            manifestHash: d.manifestHash,
            draftRevision: d.draftRevision,
            published: false,
          },
        ],
      };
    }
    case 'site.published':
    case 'site.rolled_back': {
      const d = event.data as EventData<'site.published'>;
      return {
        ...state,
        publishedVersionId: d.versionId,
        versions: state.versions.map((v) => (v.versionId === d.versionId ? { ...v, published: true } : v)),
      };
    }
    case 'site.suspended': {
      const d = event.data as EventData<'site.suspended'>;
      return { ...state, suspendedReason: d.reason };
    }
    case 'site.unsuspended':
      return { ...state, suspendedReason: undefined };
    default:
      return state;
  }
}

export interface DraftState {
  /** The stream version: 0 before the first save. */
  revision: number;
  document?: DraftDocument;
  /** The revision an undo would bring back (its document), or null: nothing to undo. */
  undoTo: number | null;
  /** The revision a redo would bring back, or null: nothing to redo. */
  redoTo: number | null;
}

export const initialDraftState = (): DraftState => ({ revision: 0, undoTo: null, redoTo: null });

export function evolveDraft(state: DraftState, event: StoredEventLike): DraftState {
  if (event.type !== 'site.draft_saved') return state;
  const d = event.data as EventData<'site.draft_saved'>;
  return { revision: event.streamVersion, document: d.document, ...draftLinksOf(event) };
}

/**
 * The undo and redo links of one `site.draft_saved`: an undo or redo records them; an ordinary save
 * (any save before undo existed included) undoes to the revision before it and has nothing to redo.
 */
export function draftLinksOf(event: StoredEventLike): { undoTo: number | null; redoTo: number | null } {
  const d = event.data as EventData<'site.draft_saved'>;
  if (d.step !== undefined) return { undoTo: d.undoTo ?? null, redoTo: d.redoTo ?? null };
  return { undoTo: event.streamVersion > 1 ? event.streamVersion - 1 : null, redoTo: null };
}

/**
 * A command on a site names its owner: a site that does not exist, or exists under another owner, is
 * the same 404, so nobody learns of another owner's sites.
 */
export function requireOwnSite(
  site: SiteState,
  ownerAgentId: string,
): asserts site is SiteState & { siteId: string; ownerAgentId: string; title: string } {
  if (!site.exists || !site.siteId || site.ownerAgentId !== ownerAgentId)
    throw notFound('builder.site_not_found', 'no such site among yours');
}

export interface CreateSite {
  siteId: string;
  ownerAgentId: string;
  title: string;
  isDefault: boolean;
  /** What the first draft holds; without one, the one-page starter. */
  template?: StarterTemplate | undefined;
}

/**
 * A new site and its starter draft (revision 1), on two fresh streams. A site that exists already is
 * not created again: for the default site, whose id is derived from its owner, that makes creating it
 * on demand idempotent (the caller then reads it); for any other it cannot happen, ids being random.
 */
export function decideCreateSite(cmd: CreateSite, site: SiteState): NewEvent[] {
  if (site.exists) {
    requireOwnSite(site, cmd.ownerAgentId);
    return [];
  }
  return [
    {
      stream: siteStream(cmd.siteId),
      type: 'site.created',
      data: {
        siteId: cmd.siteId,
        ownerAgentId: cmd.ownerAgentId,
        title: cmd.title,
        isDefault: cmd.isDefault,
      },
    },
    {
      stream: siteDraftStream(cmd.siteId),
      type: 'site.draft_saved',
      data: { siteId: cmd.siteId, document: starterTemplateDraft(cmd.template, cmd.title) },
    },
  ];
}

export interface UpdateSiteSettings {
  ownerAgentId: string;
  title?: string | undefined;
  theme?: SiteTheme | undefined;
  description?: string | undefined;
  language?: string | undefined;
  /** null clears it. */
  socialImageId?: string | null | undefined;
  faviconId?: string | null | undefined;
}

/** Records only what changes; nothing changing is no event (idempotent). */
export function decideUpdateSiteSettings(cmd: UpdateSiteSettings, site: SiteState): NewEvent[] {
  requireOwnSite(site, cmd.ownerAgentId);
  const changes: Record<string, string | null> = {};
  if (cmd.title !== undefined && cmd.title !== site.title) changes.title = cmd.title;
  if (cmd.theme !== undefined && cmd.theme !== site.theme) changes.theme = cmd.theme;
  if (cmd.description !== undefined && cmd.description !== site.description)
    changes.description = cmd.description;
  if (cmd.language !== undefined && cmd.language !== site.language) changes.language = cmd.language;
  if (cmd.socialImageId !== undefined && cmd.socialImageId !== (site.socialImageId ?? null))
    changes.socialImageId = cmd.socialImageId;
  if (cmd.faviconId !== undefined && cmd.faviconId !== (site.faviconId ?? null))
    changes.faviconId = cmd.faviconId;
  if (Object.keys(changes).length === 0) return [];
  return [{ stream: siteStream(site.siteId), type: 'site.settings_updated', data: changes }];
}

export interface SaveDraft {
  ownerAgentId: string;
  /** The draft revision the editor started from. */
  revision: number;
  /** Already validated: schema, size, content safety and references (services check those). */
  document: DraftDocument;
}

/** The stale-revision refusal, also raised by services when a concurrent save wins the append. */
export const draftStale = (currentRevision: number) =>
  conflict('builder.draft_stale', 'the draft changed since the revision you edited', { currentRevision });

/**
 * Saving a draft over the revision it was edited from: another revision is a 409 naming the current
 * one, so two editors never overwrite each other silently.
 */
export function decideSaveDraft(cmd: SaveDraft, state: { site: SiteState; draft: DraftState }): NewEvent[] {
  requireOwnSite(state.site, cmd.ownerAgentId);
  if (cmd.revision !== state.draft.revision) throw draftStale(state.draft.revision);
  return [
    {
      stream: siteDraftStream(state.site.siteId),
      type: 'site.draft_saved',
      data: { siteId: state.site.siteId, document: cmd.document },
    },
  ];
}

/** The draft's size as stored: its JSON text in UTF-8 bytes. Over the limit is `too_large`. */
export function requireDraftWithinBytes(bytes: number): void {
  if (bytes > DRAFT_LIMITS.bytes)
    throw domainError('builder.draft_too_large', 'too_large', 'the draft is over its size limit', {
      bytes,
      limit: DRAFT_LIMITS.bytes,
    });
}
