// rm_peer_mutations: the peer mutations applied here (their receipts), so a replayed id or nonce is
// refused with its own code before anything runs.
import type { PeerMutationAppliedData } from '@tributary/domain';
import type { Projection } from '../shared/projection.js';

export const peerMutationsProjection: Projection = {
  name: 'peer-mutations',
  mode: 'inline',
  tables: ['rm_peer_mutations'],
  handles: ['peer.mutation_applied'],
  statements(e) {
    const d = e.data as PeerMutationAppliedData;
    return [
      {
        text: `INSERT INTO rm_peer_mutations (peer_id, mutation_id, nonce, operation, issued_at, applied_at)
               VALUES ($1, $2, $3, $4, $5, $6)`,
        values: [d.peerId, d.mutationId, d.nonce, d.operation, d.issuedAt, e.occurredAt],
      },
    ];
  },
  async apply(db, e) {
    for (const s of peerMutationsProjection.statements!(e)!) await db.query(s.text, s.values);
  },
};
