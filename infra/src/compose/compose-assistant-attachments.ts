// The ports of pictures handed to the assistant (docs/assistant.md#attachments).
import type { AssistantAttachmentPorts, BlobStore } from '@tributary/services';
import { createAttachmentProcessor } from '../assistant/attachment-processor.js';
import type { Config } from '../config/config.js';

export function composeAssistantAttachments(o: {
  config: Config;
  /** The builder's content-addressed store: attachments' bytes sit beside media, named by their hash. */
  blobs: BlobStore;
}): AssistantAttachmentPorts {
  const c = o.config;
  return {
    processor: createAttachmentProcessor({
      maxBytes: c.ASSISTANT_ATTACHMENT_MAX_BYTES,
      maxPixels: c.ASSISTANT_ATTACHMENT_MAX_PIXELS,
    }),
    blobs: o.blobs,
  };
}
