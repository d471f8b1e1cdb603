// Preview URLs: `<base>/sites/_preview/<token>/<page>/`, the token signed by this instance and naming one
// version of one site until it expires (docs/builder.md#publishing). What a preview
// URL serves is the version's stored bytes, exactly what publishing it serves.
import type { ManifestEntry } from '@tributary/domain';
import type { BuilderOperationContext } from './builder-operation.js';
import type { BuilderOperationServices } from './builder-operation.js';

/** Where preview URLs live on the instance's own origin (`_` is never in an address label). */
export const PREVIEW_PREFIX = '/sites/_preview/';

/** A preview URL of a version, opening at a page, valid for the configured lifetime from now. */
export function previewUrl(
  ctx: Pick<BuilderOperationContext, 'services' | 'instance' | 'now'>,
  version: { siteId: string; versionId: string },
  pagePath: string,
): { href: string; expiresAt: string } {
  const tokens = ctx.services.builder.previews;
  const expiresAt = Math.floor(ctx.now.getTime() / 1000) + tokens.lifetimeSeconds;
  const token = tokens.issue({ ...version, expiresAt });
  const page = pagePath === '/' ? '' : `${pagePath.slice(1)}/`;
  return {
    href: `${ctx.instance.baseUrl}${PREVIEW_PREFIX}${token}/${page}`,
    expiresAt: new Date(expiresAt * 1000).toISOString(),
  };
}

export interface OpenPreview {
  siteId: string;
  ownerAgentId: string;
  versionId: string;
  files: ManifestEntry[];
  /** Set while the site is suspended: its previews answer nothing either. */
  suspendedReason: string | null;
}

/**
 * The version a preview token opens, if this instance issued the token, it has not expired, and the
 * site still has the version; undefined otherwise (the caller answers 404 either way).
 */
export async function openPreview(
  services: BuilderOperationServices,
  token: string,
  now: Date,
): Promise<OpenPreview | undefined> {
  const claims = services.builder.previews.verify(token);
  if (!claims || claims.expiresAt * 1000 <= now.getTime()) return undefined;
  const [site, version] = await Promise.all([
    services.builder.read.site(claims.siteId),
    services.builder.read.version(claims.siteId, claims.versionId),
  ]);
  if (!site || !version) return undefined;
  return {
    siteId: site.siteId,
    ownerAgentId: site.ownerAgentId,
    versionId: version.versionId,
    files: version.manifest,
    suspendedReason: site.suspendedReason,
  };
}
