// What the chat turn loop calls to hand a picture to a vision-capable model (docs/assistant.md#attachments).
import { notFound } from '@tributary/domain';
import type { AttachmentMediaType } from '@tributary/domain';
import type { AssistantOperationServices } from './assistant-operation.js';

export interface AttachmentForModel {
  mediaType: AttachmentMediaType;
  data: Uint8Array;
}

/**
 * The picture's stored bytes (re-encoded, without metadata) and type, when `ownerAgentId` owns it. An
 * unknown id and someone else's attachment both answer 404 `assistant.attachment_not_found`, so an id
 * tells nothing about whose it is. Bytes missing from the blob store are a server fault, never a 404.
 */
export async function loadAttachmentForModel(
  services: AssistantOperationServices,
  ownerAgentId: string,
  attachmentId: string,
): Promise<AttachmentForModel> {
  const item = await services.assistant.read.attachments.attachment(attachmentId);
  if (!item || item.ownerAgentId !== ownerAgentId)
    throw notFound('assistant.attachment_not_found', 'no such attachment among yours');
  const data = await services.assistantAttachments.blobs.get(item.blobKey);
  if (!data)
    throw new Error(`attachment ${attachmentId}: its bytes ${item.blobKey} are missing from the blob store`);
  return { mediaType: item.mediaType, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
}
