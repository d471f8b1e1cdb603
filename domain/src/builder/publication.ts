// Versions and the publication pointer (docs/builder.md#publishing): a rendered draft
// becomes a version once per content (its manifest hash), publishing moves the pointer to the draft's
// version, and rollback moves it to any version the site already has — never rendering anything.
// Pure: the rendered manifest, its hash and the version id arrive in the command.
import type { NewEvent } from '../shared/envelope.js';
import { conflict, forbidden, notFound } from '../shared/errors.js';
import type { ManifestEntry } from './events.js';
import { requireOwnSite, type SiteState } from './site.js';
import { siteStream } from './site-streams.js';

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
  cmd: { ownerAgentId: string; rendered: RenderedVersion },
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
