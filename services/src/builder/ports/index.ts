// The site builder's ports and reads.
import type { BlobStore } from './blob-store.js';
import type { BuilderReadModels } from './builder-read-models.js';
import type { CustomDomainPorts } from './custom-domains.js';
import type { MediaProcessor } from './media-processor.js';
import type { PreviewTokens } from './preview-tokens.js';
import type { SiteAddressPorts } from './site-addresses.js';
import type { SubmissionLimiter } from './submission-limiter.js';

export * from './blob-store.js';
export * from './builder-read-models.js';
export * from './builder-media-read-models.js';
export * from './custom-domains.js';
export * from './form-read-models.js';
export * from './heif-decoder.js';
export * from './media-processor.js';
export * from './preview-tokens.js';
export * from './site-addresses.js';
export * from './submission-limiter.js';

/**
 * The site builder's ports; each part of the builder adds its own here (a DNS resolver, a media
 * processor, …), filled in infra/src/compose/compose-builder.ts.
 */
export interface BuilderPorts {
  read: BuilderReadModels;
  /** Rendered versions' files and media, content-addressed under the data folder. */
  blobs: BlobStore;
  /** Custom domains: the DNS resolver, the DNS providers, where bound names must point. */
  domains: CustomDomainPorts;
  /** Signs and checks the tokens of preview URLs. */
  previews: PreviewTokens;
  /** Decides an upload's type from its bytes, checks the limits, re-encodes without metadata. */
  media: MediaProcessor;
  /** Site addresses: the hold period, the sites domain, the global registry's client. */
  addresses: SiteAddressPorts;
  /** Public form submissions per client and form (BUILDER_FORM_SUBMISSIONS_PER_MINUTE/_PER_DAY). */
  submissionLimiter: SubmissionLimiter;
}

/** What the builder area adds to the core services. */
export interface BuilderServices {
  builder: BuilderPorts;
}
