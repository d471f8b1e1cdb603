// OpenAPI paths of the peer registry, event export/import and the sync status routes
// (docs/federation.md), from the same zod schemas the routes and operations use.
import { IMPORT_MAX_BYTES, IMPORT_MAX_EVENTS, relayFollowingSchema } from '@tributary/domain';
import {
  exportQuery,
  heldQuery,
  federationStatusOutput,
  registerPeer,
  updatePeer,
} from '@tributary/services';
import {
  aliasOperationId,
  openApiJson as json,
  optionalSessionSecurity,
  problemResponse as problem,
  publicSecurity,
  rateLimitedResponse as rateLimited,
  sessionSecurity as session,
} from '../http/index.js';

const peerSigned = [{ peerSignature: [] }];

export function federationSyncPaths(): Record<string, unknown> {
  return {
    '/api/federation/peers': {
      post: {
        operationId: aliasOperationId(registerPeer.name),
        summary: 'Register a peer (operator only); the shared secret is returned once',
        security: session,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: json(registerPeer.input) } },
        },
        responses: { '201': { description: '{ result: peer }' }, default: problem },
      },
      patch: {
        operationId: aliasOperationId(updatePeer.name),
        summary: "Rotate a peer's key or secret, change its base URL, block or unblock it (operator only)",
        security: session,
        requestBody: { required: true, content: { 'application/json': { schema: json(updatePeer.input) } } },
        responses: { '200': { description: '{ result: peer and what changed }' }, default: problem },
      },
      get: {
        operationId: aliasOperationId('svc.federation.list_peers'),
        summary: 'The registered peers with their keys (operator only)',
        security: session,
        responses: { '200': { description: '{ result: { peers } }' }, default: problem },
      },
    },
    '/api/federation/events/export': {
      post: {
        operationId: 'svc.federation.export',
        summary:
          'Our feed after `since` for the signing peer (the pull side of sync): our own federable public events, and on the global instance those it relays',
        security: peerSigned,
        requestBody: { content: { 'application/json': { schema: json(exportQuery) } } },
        responses: {
          '200': { description: '{ events: [{ sequence, event }], head, hasMore }, each event as signed' },
          default: problem,
        },
      },
    },
    '/api/federation/events/held': {
      post: {
        operationId: 'svc.federation.held',
        summary:
          "The signing peer's own events we imported, after a position of our log (a peer restored from a backup takes back what it lost), and how far we pulled its feed",
        security: peerSigned,
        requestBody: { content: { 'application/json': { schema: json(heldQuery) } } },
        responses: {
          '200': { description: '{ events: [event as signed], next: position | null, pulledUpTo }' },
          default: problem,
        },
      },
    },
    '/api/federation/origins/{origin}/manifest': {
      get: {
        operationId: 'svc.federation.origin_manifest',
        security: publicSecurity,
        summary:
          "The global instance's copy of a peer's signed manifest, verbatim, for sovereigns that learn its keys (docs/federation.md#relay)",
        parameters: [{ name: 'origin', in: 'path', required: true, schema: { type: 'string' } }],
        responses: {
          '200': { description: "The origin's signed manifest, as the origin signed it" },
          default: problem,
        },
      },
    },
    '/api/federation/relay/following': {
      post: {
        operationId: 'svc.federation.relay_following',
        summary: 'The signing peer tells the global instance which origins it takes relayed events from',
        security: peerSigned,
        requestBody: { content: { 'application/json': { schema: json(relayFollowingSchema) } } },
        responses: {
          '200': { description: '{ following: { mode, origins } }' },
          default: problem,
        },
      },
    },
    '/api/federation/events/import': {
      post: {
        operationId: 'svc.federation.import',
        summary: `A batch of the signing peer's own signed events: at most ${IMPORT_MAX_EVENTS} events and ${IMPORT_MAX_BYTES} bytes`,
        security: peerSigned,
        parameters: [
          {
            name: 'after',
            in: 'query',
            required: false,
            description:
              "A push: the sender's feed sequence (as filtered for us) the batch follows; with `through`, moves our pull cursor for the sender when the batch begins at or before it (docs/federation.md)",
            schema: { type: 'integer', minimum: 0 },
          },
          {
            name: 'through',
            in: 'query',
            required: false,
            description: "A push: the sender's feed sequence of the batch's last event; greater than `after`",
            schema: { type: 'integer', minimum: 1 },
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['events'],
                additionalProperties: false,
                properties: {
                  events: { type: 'array', maxItems: IMPORT_MAX_EVENTS, items: { type: 'object' } },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description:
              '{ results: [{ index, id, status, code?, message? }], accepted, duplicates, rejected, pulledThrough?, resendFrom? } (pulledThrough: where our pull cursor for the sender stands, when the batch named its range; resendFrom: nothing was imported, since the batch began before that cursor: send from there)',
          },
          default: problem,
        },
      },
    },
    '/api/federation/status': {
      get: {
        operationId: 'svc.federation.status_summary',
        security: optionalSessionSecurity,
        summary:
          'Federation status: a public summary; the instance operator also gets every peer’s push and pull cursor',
        responses: {
          '200': {
            description:
              '{ instanceId, role, name, baseUrl, feed: { head }, sync, peers: { total, blocked, reachable, failing, unknown }, mail, cursors?, lag?, next? } (cursors, lag and next for the instance operator only; the public summary is `Cache-Control: public, max-age=5`)',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { cursors: json(federationStatusOutput, 'output').properties?.peers ?? {} },
                },
              },
            },
          },
          '429': {
            ...rateLimited,
            description: `${rateLimited.description} (RATE_LIMIT_STATUS; the operator's view is not counted)`,
          },
        },
      },
    },
    '/api/federation/node-status': {
      get: {
        operationId: 'svc.federation.node_status',
        security: publicSecurity,
        summary: 'Is this node federating, and is its global instance reachable (public)',
        responses: {
          '200': {
            description:
              '{ instanceId, role, federating, global, peerCount, peers: [{ peerId, role, state, lastContactAt }] } — peers: the first 50 unblocked peers in registration order, peerCount: all unblocked peers; `Cache-Control: public, max-age=5`',
          },
          '429': { ...rateLimited, description: `${rateLimited.description} (RATE_LIMIT_STATUS)` },
        },
      },
    },
  };
}
