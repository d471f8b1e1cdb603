// The builder area: sites, drafts, versions and publication, and what builds on them.
export * from './resolve-site.js';
export * from './markdown.js';
export * from './manifest.js';
export * from './render/render-input.js';
export { renderSite, stylesheetPath } from './render/render-site.js';
export {
  formActionPath,
  formHtml,
  mediaFilePath,
  isRenderableMediaType,
  type FormFill,
} from './render/blocks.js';
export { escapeHtml, fileHref, pageFilePath, siteHref } from './render/html.js';
export { themeStylesheet } from './render/themes.js';
export * from './check-draft.js';
export * from './create-site.js';
export * from './list-sites.js';
export * from './operations.js';
export * from './read-draft.js';
export * from './read-site.js';
export * from './list-versions.js';
export * from './list-history.js';
export * from './save-draft.js';
export * from './move-block.js';
export * from './schemas.js';
export * from './update-site.js';
export { builderDomainOperations } from './domain-operations.js';
export { bindDomain } from './bind-domain.js';
export { unbindDomain } from './unbind-domain.js';
export { listDomains } from './list-domains.js';
export { checkDomain } from './check-domain.js';
export { recheckDomains, type RecheckOutcome } from './recheck-domains.js';
export { manualDnsProvider, isApex, bindableDomain } from './custom-domains.js';
export * from './preview-site.js';
export * from './publish-site.js';
export * from './rollback-site.js';
export * from './restore-version.js';
export { undoDraft } from './undo-draft.js';
export { redoDraft } from './redo-draft.js';
export * from './publication-state.js';
export { openPreview, previewUrl, PREVIEW_PREFIX, type OpenPreview } from './preview-access.js';
export { renderDraft, storeFiles, versionIdOf, type RenderedDraft } from './render-version.js';
export { uploadMedia, MEDIA_MAX_BYTES_CEILING, base64Length } from './upload-media.js';
export { listMedia, MEDIA_PAGE_DEFAULT, MEDIA_PAGE_MAX } from './list-media.js';
export { deleteMedia } from './delete-media.js';
export { readMedia, mediaThumbnail, THUMBNAIL_SIZES, type ThumbnailSize } from './read-media.js';
export { claimAddress } from './claim-address.js';
export { siteAddressOutput, addressUrls } from './site-address-support.js';
export { siteLiveUrl } from './site-live-url.js';
export { releaseAddress } from './release-address.js';
export { registerAddress } from './register-address.js';
export { deregisterAddress } from './deregister-address.js';
export { recordAddressInstance } from './record-address-instance.js';
export { addressOperations } from './address-operations.js';
export * from './suspend-site.js';
export * from './list-suspended-sites.js';
export * from './unsuspend-site.js';
export * from './create-form.js';
export * from './delete-form.js';
export * from './delete-submission.js';
export * from './export-submissions.js';
export * from './form-operations.js';
export * from './form-views.js';
export * from './list-forms.js';
export * from './list-submissions.js';
export * from './mark-submissions-seen.js';
export * from './read-submission-mail.js';
export * from './set-submission-mail.js';
export * from './submission-mail-views.js';
export * from './submit-form.js';
export * from './update-form.js';
export * from './ports/index.js';
export { REPAIR_WORDS, inputRepairsOutput } from './input-repairs.js';
export * from './builder-operation.js';
