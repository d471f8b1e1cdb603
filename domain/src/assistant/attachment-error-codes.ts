// The error codes of assistant attachments (docs/assistant.md#attachments); docs/api.md's table is
// generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';

export const ASSISTANT_ATTACHMENT_ERROR_CODES = {
  'assistant.attachment_not_found': {
    kinds: ['not_found'],
    description: 'the attachment does not exist or is not yours',
  },
  'assistant.attachment_unsupported_type': {
    kinds: ['invalid'],
    description:
      'the upload is not a PNG, JPEG, WebP or GIF picture, as decided from its bytes (never its name or declared type); `detected` is in the details',
  },
  'assistant.attachment_unreadable': {
    kinds: ['invalid'],
    description: 'the upload starts like a picture but cannot be decoded (truncated or corrupt)',
  },
  'assistant.attachment_too_large': {
    kinds: ['too_large'],
    description: 'the upload is over `ASSISTANT_ATTACHMENT_MAX_BYTES`; `maxBytes` is in the details',
  },
  'assistant.attachment_too_many_pixels': {
    kinds: ['too_large'],
    description:
      'the picture is over `ASSISTANT_ATTACHMENT_MAX_PIXELS` (width × height of its first frame) or wider or taller than 8,000 pixels',
  },
  'assistant.attachment_upload_malformed': {
    kinds: ['invalid'],
    description:
      '`POST /api/autobot/attachments`: not `multipart/form-data`, no `file` part, more than one file, or a field that is not expected',
  },
} as const satisfies ErrorCodeList;
