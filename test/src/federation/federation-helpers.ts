// Helpers for the federation suites: real instances on loopback, each with its own database, peered
// through the operator API, and signing tools that hold an instance's own key (to act as it, or to
// forge what an attacker could send).
import {
  createOutboundHttp,
  createPeerClient,
  contentDigest,
  signatureHeaders,
  SIGNATURE_ALGORITHM,
} from '@tributary/adapters';
import type { UnsignedEnvelope } from '@tributary/domain';
import type { Clock } from '@tributary/services';
import { createEnvelopeSigner, loadOrCreateKeyFile, publicKeyBase64url } from '@tributary/infra';
import { browser, startTestInstance, type TestInstance, type TestInstanceOptions } from '@tributary/test';
import assert from 'node:assert/strict';
import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';

export const password = 'correct horse battery staple';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = Record<string, any>;

export interface Node {
  instance: TestInstance;
  url: string;
  id: string;
  role: string;
  keyId: string;
  publicKey: string;
  privateKey: KeyObject;
  /** The operator's browser (the first account, a controller). */
  operator: ReturnType<typeof browser>;
  operatorAgentId: string;
}

export async function startNode(
  role: string,
  name: string,
  env: Record<string, string> = {},
  options: { clock?: Clock; reuse?: TestInstanceOptions['reuse'] } = {},
): Promise<Node> {
  const instance = await startTestInstance({
    env: { INSTANCE_ROLE: role, INSTANCE_NAME: name, ...env },
    ...(options.clock && { clock: options.clock }),
    ...(options.reuse && { reuse: options.reuse }),
  });
  const key = loadOrCreateKeyFile(join(instance.dataDir, 'keys', 'instance-ed25519.pem'));
  const operator = browser(instance.url);
  const r = await operator.post('/api/auth/signup', {
    handle: `op_${role}`,
    password,
    name: `${name} operator`,
  });
  assert.equal(r.status, 201, r.text);
  return {
    instance,
    url: instance.url,
    id: instance.instance.instanceId,
    role,
    keyId: instance.instance.services.signer.keyId,
    publicKey: publicKeyBase64url(key.publicKey),
    privateKey: key.privateKey,
    operator,
    operatorAgentId: r.json.agentId,
  };
}

/** Background sync as the sync suites run it: push swept every 50 ms, retries from 100 ms, a pull a second. */
export const SYNC_ENV: Record<string, string> = {
  FEDERATION_SYNC: 'on',
  FEDERATION_SWEEP_MS: '50',
  FEDERATION_RETRY_BASE_MS: '100',
  FEDERATION_PULL_INTERVAL_SECONDS: '1',
};

/** One instance to start: its role (INSTANCE_ROLE), name, and its own environment. */
export interface NodeSpec {
  role: string;
  name: string;
  env?: Record<string, string>;
}

/**
 * A global instance and sovereigns around it, each sovereign and the global instance registered as peers of
 * each other, both ways (no sovereign peers another): how relayed federation and payments run. Resolves with
 * `[global, ...sovereigns]`. `env` goes to every instance, a spec's own `env` over it. With `globalUrl`, the
 * global instance starts first and each sovereign is given its address (GLOBAL_URL: payments, delegated
 * sign-in); otherwise all start at once.
 */
export async function startPeeredInstances<const S extends readonly NodeSpec[]>(o: {
  global: Omit<NodeSpec, 'role'>;
  sovereigns: S;
  env?: Record<string, string>;
  globalUrl?: boolean;
}): Promise<[Node, ...{ -readonly [K in keyof S]: Node }]> {
  const start = (spec: NodeSpec, extra: Record<string, string> = {}) =>
    startNode(spec.role, spec.name, { ...o.env, ...extra, ...spec.env });
  const globalSpec = { role: 'global', ...o.global };
  let global: Node;
  let sovereigns: Node[];
  if (o.globalUrl) {
    global = await start(globalSpec);
    sovereigns = await Promise.all(o.sovereigns.map((s) => start(s, { GLOBAL_URL: global.url })));
  } else {
    const all = await Promise.all([globalSpec, ...o.sovereigns].map((s) => start(s)));
    global = all[0]!;
    sovereigns = all.slice(1);
  }
  for (const s of sovereigns) {
    await register(global, s);
    await register(s, global);
  }
  return [global, ...sovereigns] as [Node, ...{ -readonly [K in keyof S]: Node }];
}

/** Registers `peer` on `host` through the operator API. */
export async function register(
  host: Pick<Node, 'operator'>,
  peer: Pick<Node, 'id' | 'url' | 'role' | 'publicKey'>,
  extra: Loose = {},
) {
  const r = await host.operator.post('/api/federation/peers', {
    peerId: peer.id,
    baseUrl: peer.url,
    role: peer.role,
    publicKey: peer.publicKey,
    ...extra,
  });
  assert.equal(r.status, 201, r.text);
  return r.json.result as Loose;
}

/** A signed-request client that speaks as `node` (its key), optionally with a skewed clock. */
export function clientOf(node: Pick<Node, 'keyId' | 'privateKey'>, now?: () => Date) {
  return createPeerClient({
    signer: { keyId: node.keyId, sign: (data) => sign(null, data, node.privateKey) },
    outbound: createOutboundHttp({ allowedAddresses: '127.0.0.0/8' }),
    ...(now && { now }),
  });
}

/** A POST signed as `node`, with the parts an attacker might change given separately. */
export async function signedPost(
  node: Pick<Node, 'keyId' | 'privateKey'>,
  url: string,
  body: string,
  o: { sentBody?: string; created?: number; nonce?: string; keyId?: string } = {},
) {
  const headers = signatureHeaders(
    { method: 'POST', targetUri: url, contentDigest: contentDigest(body) },
    {
      created: o.created ?? Math.floor(Date.now() / 1000),
      nonce: o.nonce ?? randomBytes(16).toString('base64url'),
      keyid: o.keyId ?? node.keyId,
      alg: SIGNATURE_ALGORITHM,
    },
    (base) => sign(null, base, node.privateKey),
  );
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: o.sentBody ?? body,
  });
  const text = await res.text();
  let json: Loose = {};
  try {
    json = JSON.parse(text) as Loose;
  } catch {
    /* not JSON */
  }
  return { status: res.status, json, text, headers: res.headers };
}

/** Seals events as `node` (its real instance key): what it would send, or what a forger with its key could. */
export function sealerOf(node: Pick<Node, 'id' | 'privateKey'> & { instance: TestInstance }) {
  const key = loadOrCreateKeyFile(join(node.instance.dataDir, 'keys', 'instance-ed25519.pem'));
  const signer = createEnvelopeSigner({
    origin: node.id,
    privateKey: key.privateKey,
    publicKey: key.publicKey,
  });
  return (e: Partial<UnsignedEnvelope> & Pick<UnsignedEnvelope, 'type' | 'stream' | 'actorId' | 'data'>) =>
    signer.seal({
      v: 1,
      id: uuidv7(),
      origin: node.id,
      keyId: signer.keyId,
      streamVersion: 1,
      occurredAt: new Date().toISOString(),
      nonce: randomBytes(16).toString('base64url'),
      ...e,
    } as UnsignedEnvelope);
}

/** What an import may change on `node`: rows in the log and the federation read models. */
export async function footprint(node: Node) {
  const { rows } = await node.instance.instance.pool.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM rm_agents) AS agents,
            (SELECT count(*) FROM rm_remote_agents) AS bindings, (SELECT count(*) FROM peer_event_nonces) AS nonces,
            (SELECT count(*) FROM rm_agents WHERE placeholder) AS placeholders`,
  );
  return rows[0]!;
}

/** The feed of `node`, as event texts ready to send on (JSON of the signed envelopes). */
export async function ownEvents(node: Node, filter: (e: Loose) => boolean = () => true): Promise<string[]> {
  await node.instance.instance.sequencer.drain(); // the feed is numbered shortly after commit
  const r = await fetch(`${node.url}/api/federation/events?limit=500`);
  const body = (await r.json()) as { events: { event: Loose }[] };
  return body.events
    .map((e) => e.event)
    .filter(filter)
    .map((e) => JSON.stringify(e));
}
