// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

export const federationStepWords: Record<string, DescribeStep> = {
  'svc.federation.read_feed': () => 'Read the event feed',
  'svc.federation.register_peer': (a) => `Register the peer ${q(a.name ?? a.baseUrl)} at ${q(a.baseUrl)}`,
  'svc.federation.update_peer': (a) =>
    a.blocked === true
      ? `Block the peer ${q(a.peerId)}`
      : a.blocked === false
        ? `Unblock the peer ${q(a.peerId)}`
        : `Update the peer ${q(a.peerId)}`,
  'svc.federation.list_peers': () => 'List the peers',
  'svc.federation.status': () => 'Read the federation status',
  'svc.federation.equivocations': () => 'List what peers signed twice differently',
  'svc.federation.set_relay_following': (a) => `Choose which origins come through the relay (${q(a.mode)})`,
  'svc.federation.pin_origin_key': (a) => `Pin the key of the origin ${q(a.origin)}`,
  'svc.agent.follow': (a, n) => `Follow ${q(a.agent)} as ${n.agent(a.targetAgentId)}`,
  'svc.agent.unfollow': (a, n) => `Stop following ${n.agent(a.agentId)}`,
  'svc.agent.list_followed': () => 'List the agents you follow',
};
