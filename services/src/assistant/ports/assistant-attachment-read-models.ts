// What the assistant's attachments read from rm_assistant_attachments. Part of ReadModels' `assistant`.
import type { AttachmentMediaType } from '@tributary/domain';

export interface AttachmentView {
  attachmentId: string;
  /** The agent the upload acted as: the only one that may reference or load it. */
  ownerAgentId: string;
  mediaType: AttachmentMediaType;
  width: number;
  height: number;
  /** Bytes stored. */
  bytes: number;
  sha256: string;
  /** The blob store's name for the bytes. */
  blobKey: string;
  addedAt: string;
}

export interface AttachmentReadModels {
  /** One attachment, whoever owns it: callers check the owner. */
  attachment(attachmentId: string): Promise<AttachmentView | null>;
}
