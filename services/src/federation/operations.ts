// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { followAgent, unfollowAgent } from './follow-agent.js';
import { federationEquivocations } from './list-equivocations.js';
import { listFollowed } from './list-followed.js';
import { listPeers } from './list-peers.js';
import { readFeedTool } from './read-feed.js';
import { registerPeer } from './register-peer.js';
import { pinOriginKey, setRelayFollowing } from './relay-operations.js';
import { federationStatus } from './status.js';
import { updatePeer } from './update-peer.js';

export const federationOperations: readonly AnyOperation[] = [
  readFeedTool,
  registerPeer,
  updatePeer,
  listPeers,
  federationStatus,
  federationEquivocations,
  setRelayFollowing,
  pinOriginKey,
  // Following agents: the operations resolve through discover and tell the relays.
  followAgent,
  unfollowAgent,
  listFollowed,
];
