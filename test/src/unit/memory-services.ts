// The Services the pipeline runs on, composed in memory for unit tests: the in-memory log and read
// models, a real signer, ids, bcrypt (at its lowest cost) and JWT minting, throttles kept in maps by
// the same rules as the Postgres ones, and the federation ports (in-memory-federation.ts). Test layer
// only.
import { createJwtAccessTokens } from '@tributary/adapters';
import {
  AdjustableClock,
  createAttachmentProcessor,
  createBcryptHasher,
  createEnvelopeSigner,
  createLibheifDecoder,
  createPreviewTokens,
  createSharpMediaProcessor,
  createSubmissionLimiter,
  generateSigningKey,
  previewKeyFrom,
  nodeIds,
  type SigningKeyPair,
} from '@tributary/infra';
import {
  supportedScopes,
  type BlobStore,
  type Clock,
  type PollPacer,
  type RemoteViewerCredentialRecord,
  type RemoteViewerCredentials,
  type Services,
  type Throttle,
} from '@tributary/services';
import { createHash, randomUUID } from 'node:crypto';
import { InMemoryEventStore } from './in-memory-event-store.js';
import { memoryFederation, type MemoryFederationServices } from './in-memory-federation.js';
import { inMemoryReadModels } from './in-memory-read-models.js';
import { memoryDnsZone, memoryDomainPorts, type MemoryDnsZone } from './memory-dns.js';

export const UNIT_BASE_URL = 'https://unit.tributary.test';

export interface MemoryServices {
  services: Services;
  store: InMemoryEventStore;
  clock: AdjustableClock;
  key: SigningKeyPair;
  /** The same object as `services.federation`, with its in-memory stores' own methods. */
  federation: MemoryFederationServices;
  /** The zone the custom-domain checks look names up in. */
  dns: MemoryDnsZone;
}

export function memoryServices(): MemoryServices {
  const key = generateSigningKey();
  const origin = randomUUID();
  const signer = createEnvelopeSigner({ origin, privateKey: key.privateKey, publicKey: key.publicKey });
  const store = new InMemoryEventStore();
  const clock = new AdjustableClock();
  const read = inMemoryReadModels(store);
  const dns = memoryDnsZone();
  const federation = memoryFederation(store);
  const throttle = () => memoryThrottle({ maxFailures: 5, windowSeconds: 900, baseBlockSeconds: 900 }, clock);
  const blobs = memoryBlobStore();
  const services: Services = {
    store,
    signer,
    clock,
    ids: nodeIds,
    instance: { read: read.instance },
    agents: { read: read.agents },
    manifests: { read: read.manifests },
    presence: { read: read.presence },
    accounts: {
      read: read.accounts,
      // The lowest cost bcrypt takes: the same checks, in a few milliseconds.
      passwords: createBcryptHasher(4),
      throttle: throttle(),
    },
    oauth: {
      read: read.oauth,
      clients: {
        // Registered clients only: a URL client ID's metadata document is fetched over HTTP, tested end to end.
        find: async (clientId) => read.oauth.oauthClient(clientId),
      },
      deviceFlow: {
        polls: memoryPollPacer(),
        wrongCodePerAccount: throttle(),
        wrongCodePerAddress: throttle(),
      },
    },
    federation,
    tokens: {
      read: read.tokens,
      accessTokens: createJwtAccessTokens({
        privateKey: key.privateKey,
        publicKey: key.publicKey,
        keyId: signer.keyId,
        issuer: UNIT_BASE_URL,
        audience: `${UNIT_BASE_URL}/api/mcp`,
      }),
    },
    // The real media processor: sharp is fast enough on the small images the unit tests make.
    builder: {
      read: read.builder,
      blobs,
      domains: memoryDomainPorts(dns),
      previews: createPreviewTokens(previewKeyFrom(key.privateKey), 900),
      media: createSharpMediaProcessor(undefined, { heif: createLibheifDecoder() }),
      addresses: { holdDays: 30, sitesDomain: 'sites.unit.test' },
      submissionLimiter: createSubmissionLimiter({ perMinute: 5, perDay: 50 }),
    },
    assistant: {
      remoteViewers: memoryRemoteViewers(),
      read: {
        threads: read.assistantThreads,
        vault: read.assistantVault,
        attachments: read.assistantAttachments,
      },
    },
    // The real attachment processor with its documented defaults, over the same blob store as media.
    assistantAttachments: {
      processor: createAttachmentProcessor(),
      blobs,
    },
    config: {
      sessionTtlSeconds: 3600,
      scopesSupported: supportedScopes(),
      oauth: {
        codeSeconds: 60,
        accessTokenSeconds: 3600,
        refreshTokenSeconds: 30 * 86400,
        refreshAbsoluteSeconds: 90 * 86400,
        deviceCodeSeconds: 600,
      },
    },
  };
  return { services, store, clock, key, federation, dns };
}

/** Remote-viewer credentials in a map, by the same contract as the Postgres table. */
export function memoryRemoteViewers(): RemoteViewerCredentials {
  const byId = new Map<string, RemoteViewerCredentialRecord>();
  return {
    async insert(record) {
      if ([...byId.values()].some((r) => r.tokenHash === record.tokenHash))
        throw new Error('duplicate remote-viewer token hash');
      byId.set(record.credentialId, { ...record, revokedAt: null });
    },
    async byTokenHash(tokenHash) {
      const r = [...byId.values()].find((x) => x.tokenHash === tokenHash);
      return r ? { ...r } : null;
    },
    async revoke(credentialId, at) {
      const r = byId.get(credentialId);
      if (!r) return false;
      r.revokedAt ??= at;
      return true;
    },
  };
}

/** Content-addressed bytes in a map, by the same contract as the file store. */
export function memoryBlobStore(): BlobStore {
  const blobs = new Map<string, Buffer>();
  return {
    async put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (!blobs.has(sha256)) blobs.set(sha256, Buffer.from(bytes));
      return { sha256, length: bytes.length };
    },
    async get(sha256) {
      const b = blobs.get(sha256);
      return b ? Buffer.from(b) : undefined;
    },
    async has(sha256) {
      return blobs.has(sha256);
    },
  };
}

/** Failures per key within a window; past the limit the key waits base × 2^(excess), at most an hour. */
function memoryThrottle(
  o: { maxFailures: number; windowSeconds: number; baseBlockSeconds: number },
  clock: Clock,
): Throttle {
  const keys = new Map<string, { failures: number; windowStart: number; blockedUntil?: number }>();
  return {
    async retryAfter(key) {
      const until = keys.get(key)?.blockedUntil;
      return until === undefined ? 0 : Math.max(0, Math.ceil((until - clock.now().getTime()) / 1000));
    },
    async recordFailure(key) {
      const t = clock.now().getTime();
      const k = keys.get(key);
      const fresh = !k || k.windowStart < t - o.windowSeconds * 1000;
      const entry = fresh ? { failures: 1, windowStart: t } : { ...k, failures: k.failures + 1 };
      if (entry.failures >= o.maxFailures)
        entry.blockedUntil =
          t + Math.min(3600, o.baseBlockSeconds * 2 ** (entry.failures - o.maxFailures)) * 1000;
      keys.set(key, entry);
    },
    async reset(key) {
      keys.delete(key);
    },
  };
}

/**
 * RFC 8628 poll pacing as the Postgres pacer does it: a run of too-fast polls grows the interval by 5 s
 * once, a polite poll shrinks it by 5 s down to the advertised interval.
 */
function memoryPollPacer(): PollPacer {
  const keys = new Map<string, { last: number; intervalSeconds: number; tooFast: boolean }>();
  return {
    async poll(key, at, intervalSeconds) {
      const k = keys.get(key);
      if (!k) {
        keys.set(key, { last: at.getTime(), intervalSeconds, tooFast: false });
        return { tooFast: false, intervalSeconds };
      }
      const tooFast = at.getTime() - k.last < k.intervalSeconds * 1000;
      const grown = tooFast
        ? k.intervalSeconds + (k.tooFast ? 0 : 5)
        : Math.max(intervalSeconds, k.intervalSeconds - 5);
      keys.set(key, { last: at.getTime(), intervalSeconds: grown, tooFast });
      return { tooFast, intervalSeconds: grown };
    },
  };
}
