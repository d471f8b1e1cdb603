// The assistant's picture processor (docs/assistant.md#attachments): the builder's sharp processor with
// the assistant's limits, types and refusal codes. PNG, JPEG, WebP and GIF only — what vision models
// take — and an animation keeps its first frame, since models read stills.
import type { MediaLimits, MediaProcessor } from '@tributary/services';
import { createSharpMediaProcessor } from '../builder/sharp-media-processor.js';

/** The documented defaults (docs/configuration.md). */
export const DEFAULT_ATTACHMENT_LIMITS: MediaLimits = {
  // Within what the common vision APIs take per picture (5 MB on some), base64 in a request.
  maxBytes: 5 * 1024 * 1024,
  maxPixels: 25_000_000,
  // The widest or tallest picture the common vision APIs take; not configurable.
  maxDimension: 8_000,
};

export function createAttachmentProcessor(
  limits: Pick<MediaLimits, 'maxBytes' | 'maxPixels'> = DEFAULT_ATTACHMENT_LIMITS,
): MediaProcessor {
  return createSharpMediaProcessor(
    { ...limits, maxDimension: DEFAULT_ATTACHMENT_LIMITS.maxDimension },
    {
      accept: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'],
      stillsOnly: true,
      codes: {
        tooLarge: 'assistant.attachment_too_large',
        tooManyPixels: 'assistant.attachment_too_many_pixels',
        unsupportedType: 'assistant.attachment_unsupported_type',
        unreadable: 'assistant.attachment_unreadable',
      },
    },
  );
}
