// Versions and the publication pointer (docs/builder.md#publishing): a rendered draft
// becomes a version once per content (its manifest hash), publishing moves the pointer to the draft's
// version, and rollback moves it to a version the site once served — never rendering anything. A
// preview renders versions too, but one never served is not a version to go back to.
// Pure: the rendered manifest, its hash and the version id arrive in the command.
import { z } from 'zod';
import type { NewEvent } from '../shared/envelope.js';
import { conflict, forbidden, notFound } from '../shared/errors.js';
import type { DraftDocument } from './draft-document.js';
import { PUBLISH_NOTE_MAX, type ManifestEntry } from './events.js';
import { draftStale, requireOwnSite, type DraftState, type SiteState, type SiteVersionRef } from './site.js';
import { siteDraftStream, siteStream } from './site-streams.js';

// eslint-disable-next-line no-control-regex
const NO_CONTROLS = /^[^\u0000-\u001f\u007f]*$/;
/** A publish note as a caller gives it: one line, at most PUBLISH_NOTE_MAX characters. */
export const publishNoteSchema = z
  .string()
  .trim()
  .max(PUBLISH_NOTE_MAX)
  .regex(NO_CONTROLS, 'one line, no control characters');

/** A draft as rendered: what a new version would hold. */
export interface RenderedVersion {
  /** The id a new version gets (services derive it from the site and the manifest hash). */
  versionId: string;
  draftRevision: number;
  manifestHash: string;
  manifest: ManifestEntry[];
}

export interface VersionDecision {
  /** The version that holds this content: the site's existing one with the same manifest hash, or the new one. */
  versionId: string;
  /** Whether a version with this content existed already (then no site.version_created). */
  reused: boolean;
  events: NewEvent[];
}

/** The refusal of a suspended site's publish or rollback, with the operator's reason. */
export const siteSuspendedError = (reason: string) =>
  forbidden('builder.site_suspended', 'the site is suspended by an operator', { reason });

function requireNotSuspended(site: SiteState): void {
  if (site.suspendedReason !== undefined) throw siteSuspendedError(site.suspendedReason);
}

/** The version for this rendered content: the one the site has with the same hash, else a new one. */
export function decideVersion(
  cmd: { ownerAgentId: string; rendered: RenderedVersion },
  site: SiteState,
): VersionDecision {
  requireOwnSite(site, cmd.ownerAgentId);
  const existing = site.versions.find((v) => v.manifestHash === cmd.rendered.manifestHash);
  if (existing) return { versionId: existing.versionId, reused: true, events: [] };
  const { versionId, draftRevision, manifestHash, manifest } = cmd.rendered;
  return {
    versionId,
    reused: false,
    events: [
      {
        stream: siteStream(site.siteId),
        type: 'site.version_created',
        data: { versionId, draftRevision, manifestHash, manifest },
      },
    ],
  };
}

/**
 * Publishing the draft's rendered content: its version (created here if the site has none with this
 * hash), then the pointer moved to it. Already published: nothing, so publishing twice has one effect.
 * A suspended site publishes nothing.
 */
export function decidePublish(
  cmd: { ownerAgentId: string; rendered: RenderedVersion; note?: string | undefined },
  site: SiteState,
): VersionDecision {
  requireOwnSite(site, cmd.ownerAgentId);
  requireNotSuspended(site);
  const version = decideVersion(cmd, site);
  if (site.publishedVersionId === version.versionId) return version;
  return {
    ...version,
    events: [
      ...version.events,
      {
        stream: siteStream(site.siteId),
        type: 'site.published',
        data: {
          siteId: site.siteId,
          ownerAgentId: site.ownerAgentId,
          versionId: version.versionId,
          manifestHash: cmd.rendered.manifestHash,
          manifest: cmd.rendered.manifest,
          title: site.title,
        },
      },
      // The note rides with the publish it describes; a publish that changes nothing records none.
      ...(cmd.note
        ? [
            {
              stream: siteStream(site.siteId),
              type: 'site.publish_noted',
              data: { versionId: version.versionId, note: cmd.note },
            },
          ]
        : []),
    ],
  };
}

/**
 * Moving the pointer to a version the site already has (earlier or later than the published one),
 * with that version's stored manifest. Another site's version is the same 404 as none; the version
 * already published is nothing to do; a site never published has nothing to roll back.
 */
export function decideRollback(
  cmd: { ownerAgentId: string; versionId: string; manifestHash: string; manifest: ManifestEntry[] },
  site: SiteState,
): NewEvent[] {
  requireOwnSite(site, cmd.ownerAgentId);
  requireNotSuspended(site);
  const version = site.versions.find((v) => v.versionId === cmd.versionId);
  if (!version) throw notFound('builder.version_not_found', 'no such version of this site');
  if (version.manifestHash !== cmd.manifestHash)
    throw new Error(`version ${cmd.versionId}: the manifest given does not hash to the version's`);
  if (site.publishedVersionId === undefined)
    throw conflict('builder.not_published', 'the site has never been published: publish it first');
  if (site.publishedVersionId === cmd.versionId) return [];
  requirePublishedVersion(version);
  return [
    {
      stream: siteStream(site.siteId),
      type: 'site.rolled_back',
      data: {
        siteId: site.siteId,
        ownerAgentId: site.ownerAgentId,
        versionId: cmd.versionId,
        manifestHash: cmd.manifestHash,
        manifest: cmd.manifest,
        fromVersionId: site.publishedVersionId,
      },
    },
  ];
}

/** Only a version the site once served is one to go back to: a preview's never was. */
export function requirePublishedVersion(version: SiteVersionRef): void {
  if (!version.published)
    throw conflict(
      'builder.version_not_published',
      'this version was only ever a preview: only a version that was published can be served again or restored',
      { versionId: version.versionId },
    );
}

/**
 * Restoring a published version's content into the draft: the document the version was rendered from
 * (read from the draft's history by services) saved as a new draft revision, over the revision the
 * editor holds, and `site.version_restored` on the site's stream for its history. A draft that already
 * holds it is nothing to do. Site settings (title, theme) are not part of the draft and stay as they are.
 */
export function decideRestoreVersion(
  cmd: { ownerAgentId: string; versionId: string; revision: number; document: DraftDocument },
  state: { site: SiteState; draft: DraftState },
): NewEvent[] {
  const { site, draft } = state;
  requireOwnSite(site, cmd.ownerAgentId);
  const version = site.versions.find((v) => v.versionId === cmd.versionId);
  if (!version) throw notFound('builder.version_not_found', 'no such version of this site');
  requirePublishedVersion(version);
  if (cmd.revision !== draft.revision) throw draftStale(draft.revision);
  if (JSON.stringify(draft.document) === JSON.stringify(cmd.document)) return [];
  return [
    {
      stream: siteDraftStream(site.siteId),
      type: 'site.draft_saved',
      data: { siteId: site.siteId, document: cmd.document },
    },
    // The site's history keeps the restore (a draft save alone does not say where its content came from).
    {
      stream: siteStream(site.siteId),
      type: 'site.version_restored',
      data: { versionId: cmd.versionId, draftRevision: draft.revision + 1 },
    },
  ];
}
