// An attachment's stream (`aattach-<attachmentId>`), its fold and decider. The id is derived from the
// owner and the stored bytes' hash (`attachmentIdFor`), so the same picture handed over twice by the same
// owner is the same attachment (recorded once, even when two uploads race), and two owners never share one.
import { mediaIdFor } from '../builder/index.js';
import type { NewEvent } from '../shared/envelope.js';
import { notFound } from '../shared/errors.js';
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AttachmentAddedData } from './attachment-events.js';
import { attachmentStream } from './streams.js';

/** What `attachmentIdFor` hashes (services computes the SHA-256: the domain has no crypto). */
export const attachmentIdSeed = (ownerAgentId: string, sha256: string) =>
  `aattach\n${ownerAgentId}\n${sha256}`;

/** A name-based UUID (RFC 9562 version 8) from a hex SHA-256 digest of `attachmentIdSeed(owner, sha256)`. */
export const attachmentIdFor = (digestHex: string): string => mediaIdFor(digestHex);

export interface AttachmentState {
  added: boolean;
  item?: AttachmentAddedData;
}

const initialAttachmentState = (): AttachmentState => ({ added: false });

function evolveAttachment(state: AttachmentState, event: StoredEventLike): AttachmentState {
  if (event.type === 'assistant.attachment_added')
    return { added: true, item: event.data as AttachmentAddedData };
  return state;
}

export const attachmentAggregates: readonly StreamAggregate[] = [
  streamAggregate('aattach-', { initial: initialAttachmentState, evolve: evolveAttachment }),
];

/** Records the attachment, or nothing when the owner already handed over these bytes (the caller answers it). */
export function decideAddAttachment(cmd: AttachmentAddedData, state: AttachmentState): NewEvent[] {
  if (state.added) return [];
  return [{ stream: attachmentStream(cmd.attachmentId), type: 'assistant.attachment_added', data: cmd }];
}

/** The attachment, when `ownerAgentId` owns it; someone else's looks like none at all. */
export function ownedAttachment(state: AttachmentState, ownerAgentId: string): AttachmentAddedData {
  if (!state.added || state.item?.ownerAgentId !== ownerAgentId)
    throw notFound('assistant.attachment_not_found', 'no such attachment among yours');
  return state.item;
}
