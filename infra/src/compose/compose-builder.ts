// The site builder's ports. Each part of the builder fills its own here (blob store, DNS resolver,
// media processor, preview signer, …).
import { createSiteAddressRegistryClient, type OutboundHttp, type RequestSigner } from '@tributary/adapters';
import { manualDnsProvider, type BuilderPorts, type Clock } from '@tributary/services';
import { join } from 'node:path';
import { FsBlobStore } from '../builder/fs-blob-store.js';
import { createNodeDnsResolver } from '../builder/node-dns-resolver.js';
import { createPreviewTokens, previewKeyFrom } from '../builder/preview-tokens.js';
import type { Config } from '../config/config.js';
import type { SigningKeyPair } from '../signing/index.js';
import { createSharpMediaProcessor } from '../builder/sharp-media-processor.js';
import { createLibheifDecoder } from '../builder/libheif-decoder.js';
import { createSubmissionLimiter } from '../runtime/submission-limiter.js';
import { startDomainRecheck, type DomainRecheckRunner } from '../builder/domain-recheck-runner.js';
import { defineArea, type BackgroundRunner } from './area.js';

/** DNS lookups at once in a custom-domain re-check sweep. */
const DOMAIN_RECHECK_CONCURRENCY = 4;

/** The content-addressed store under the data folder; it holds no state but its folder. */
export const builderBlobs = (config: Pick<Config, 'TRIBUTARY_DATA_DIR'>) =>
  new FsBlobStore(join(config.TRIBUTARY_DATA_DIR, 'blobs'));

export function composeBuilder(o: {
  config: Config;
  key: SigningKeyPair;
  /** The process's outbound client: calls to the global address registry go through it. */
  outbound: OutboundHttp;
  clock: Clock;
  /** This instance's key, signing requests to peers (RFC 9421). */
  signer: RequestSigner;
}): Omit<BuilderPorts, 'read'> {
  const c = o.config;
  const appHost = new URL(c.BASE_URL).hostname.toLowerCase();
  const targetHost = c.DOMAIN_CNAME_TARGET ?? appHost;
  return {
    // Rendered versions and media, content-addressed under the data folder (docs/builder.md).
    blobs: builderBlobs(c),
    // Custom domains (docs/builder.md#domains). A DNS provider with an API would be another
    // DnsProviderDriver in this list, its calls going through the outbound HTTP client.
    domains: {
      resolver: createNodeDnsResolver({ servers: c.DNS_RESOLVERS, timeoutMs: c.DNS_TIMEOUT_MS }),
      providers: [manualDnsProvider],
      settings: {
        // The CNAME target is one of the instance's names too.
        instanceHosts: [...new Set([appHost, targetHost])],
        sitesDomain: c.SITES_DOMAIN,
        targetHost,
        publicAddresses: [...c.SITES_PUBLIC_IPV4, ...c.SITES_PUBLIC_IPV6],
        holdSeconds: c.DOMAIN_CLAIM_HOLD_SECONDS,
      },
    },
    previews: createPreviewTokens(previewKeyFrom(o.key.privateKey), c.BUILDER_PREVIEW_SECONDS),
    // Uploads, scaled down to the long edge; HEIC/HEIF photos decoded by libheif (WebAssembly).
    media: createSharpMediaProcessor(
      {
        maxBytes: c.BUILDER_MEDIA_MAX_BYTES,
        maxPixels: c.BUILDER_MEDIA_MAX_PIXELS,
        maxDimension: c.BUILDER_MEDIA_MAX_DIMENSION,
        longEdge: c.BUILDER_MEDIA_LONG_EDGE,
      },
      { heif: createLibheifDecoder() },
    ),
    // Site addresses (docs/builder.md#addresses); the registry client speaks to the global instance.
    addresses: {
      holdDays: c.ADDRESS_HOLD_DAYS,
      sitesDomain: c.SITES_DOMAIN,
      registry: createSiteAddressRegistryClient({
        signer: o.signer,
        outbound: o.outbound,
        now: () => o.clock.now(),
      }),
    },
    submissionLimiter: createSubmissionLimiter({
      perMinute: c.BUILDER_FORM_SUBMISSIONS_PER_MINUTE,
      perDay: c.BUILDER_FORM_SUBMISSIONS_PER_DAY,
    }),
  };
}

/** The builder: its ports and reads, and the scheduled re-check of custom domains (unless off). */
export const builderArea = defineArea((ctx) => {
  const { config, logger } = ctx;
  let domainRecheck: DomainRecheckRunner | null = null;
  const recheck: BackgroundRunner = {
    name: 'domain-recheck',
    async start() {
      domainRecheck = await startDomainRecheck({
        services: ctx.services(),
        logger,
        instanceId: ctx.instanceId,
        intervalSeconds: config.DOMAIN_RECHECK_SECONDS,
        concurrency: DOMAIN_RECHECK_CONCURRENCY,
        redisUrl:
          config.DOMAIN_RECHECK_QUEUE === 'bullmq' ||
          (config.DOMAIN_RECHECK_QUEUE === 'auto' && !!config.REDIS_URL)
            ? config.REDIS_URL
            : undefined,
      });
      logger.info({ mode: domainRecheck.mode }, 'custom-domain re-check started');
    },
    async stop() {
      await domainRecheck?.stop();
      domainRecheck = null;
    },
    get queueDepths() {
      return domainRecheck?.queueDepths;
    },
  };
  return {
    services: {
      builder: {
        ...composeBuilder({ ...ctx, signer: ctx.requestSigner }),
        read: ctx.read.builder,
      },
    },
    runners: config.DOMAIN_RECHECK_SECONDS === 0 ? [] : [recheck],
    handles: {
      /** The scheduled re-check of custom domains, once started (null otherwise, or when off). */
      get domainRecheck(): DomainRecheckRunner | null {
        return domainRecheck;
      },
    },
  };
});
