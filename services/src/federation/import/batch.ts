// What the steps of an import pass along: where the batch came from, and each event as it goes through
// them (parsed, then with the key it must verify under, then placed in its local stream).
import type { agentReferences, Envelope } from '@tributary/domain';
import type { PeerView } from '../ports/federation.js';

export interface ImportOptions {
  /** Only a locally initiated pull-sync after long downtime may take events older than the window. */
  allowHistorical?: boolean;
  /**
   * Each text already parsed by `verifier.parseEnvelope` (a pulled page read ahead, whose signatures were
   * then checked with `remember`: the verifier answers for these very objects); undefined where it was
   * not, or failed, and is parsed here.
   */
  parsed?: readonly (Envelope | undefined)[];
}

/** Who handed us the batch: a registered peer (itself, or a relay), or the origin's own public query. */
export type Source = { kind: 'peer'; peer: PeerView } | { kind: 'origin'; origin: string };

/** An event of the batch that parsed and passed the import rules. */
export interface Candidate {
  index: number;
  text: string;
  envelope: Envelope;
  /** The batch's own key announcement this event's key came from, if it is not known yet. */
  introducedBy?: number | undefined;
}

/** A candidate whose signature verified under this public key. */
export type Verified = Candidate & { publicKey: string };

/** A verified event with the agents it names and the local stream it would go to. */
export type Placed = Verified & { refs: ReturnType<typeof agentReferences>; localStream: string };
