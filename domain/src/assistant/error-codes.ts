// The assistant's error codes, the connected account's and the attachments' with them (their own files);
// docs/api.md's table is generated from these descriptions.
import type { ErrorCodeList } from '../shared/error-kind.js';
import { ASSISTANT_ACCOUNT_ERROR_CODES } from './account-error-codes.js';
import { ASSISTANT_ATTACHMENT_ERROR_CODES } from './attachment-error-codes.js';

export const ASSISTANT_ERROR_CODES = {
  'assistant.thread_not_found': {
    kinds: ['not_found'],
    description: 'the thread does not exist, was deleted, or is not yours',
  },
  'assistant.message_not_found': {
    kinds: ['not_found'],
    description: 'the thread has no such message, or it carries no plan',
  },
  'assistant.plan_not_found': {
    kinds: ['not_found'],
    description: 'the plan does not exist or is not yours (a plan is found by its id or its hash)',
  },
  'assistant.message_too_long': {
    kinds: ['too_large'],
    description: 'the message is over its limit (`limit` characters in the details)',
  },
  'assistant.plan_already_confirmed': {
    kinds: ['conflict'],
    description: 'the plan was already confirmed (and has run or is running): a plan is confirmed once',
  },
  'assistant.plan_cancelled': {
    kinds: ['conflict'],
    description: 'the plan (or every step you named) was cancelled',
  },
  'assistant.plan_expired': {
    kinds: ['conflict'],
    description: 'the plan expired before it was confirmed (`expiresAt` in the details); ask again',
  },
  'assistant.plan_altered': {
    kinds: ['conflict'],
    description:
      'the plan hash does not match the plan as proposed: nothing runs unless it is exactly what was confirmed',
  },
  'assistant.step_unknown': {
    kinds: ['invalid'],
    description: 'a step number names no pending step of this plan',
  },
  'assistant.step_already_finished': {
    kinds: ['conflict'],
    description: 'this step has already run, failed or been skipped: a step runs at most once',
  },
  'assistant.step_not_confirmed': {
    kinds: ['conflict'],
    description: 'this step was not confirmed, so it does not run',
  },
  'assistant.plan_too_large': {
    kinds: ['too_large'],
    description: 'a plan may hold at most `limit` steps',
  },
  'assistant.scope_not_covered': {
    kinds: ['forbidden'],
    description:
      "the credential's scopes do not cover every step of the plan (`missing` in the details): nothing runs",
  },
  'assistant.spend_needs_person': {
    kinds: ['forbidden'],
    description:
      'a plan step that moves money (`svc.wallet.spend`) is confirmed only by the person, signed in — never by a token, whatever its scopes or the settings (`steps` in the details): nothing runs',
  },
  'assistant.unknown_tool': {
    kinds: ['invalid'],
    description: 'the model named a tool that is not in the catalogue or not offered to you',
  },
  'assistant.malformed_tool_call': {
    kinds: ['invalid'],
    description: "the model's tool call is not JSON or does not match the tool's input schema",
  },
  'assistant.untrusted_instruction': {
    kinds: ['forbidden'],
    description:
      'a write the model proposed after reading content from outside (tool results, attachments, forms, peers); it was not added to the plan',
  },
  'assistant.model_unavailable': {
    kinds: ['unavailable'],
    description: 'the language model did not answer in time, is down, or refused the request',
  },
  'assistant.model_malformed': {
    kinds: ['unavailable'],
    description: 'the language model answered something that is not a valid reply',
  },
  'assistant.remote_viewer_read_only': {
    kinds: ['forbidden'],
    description: 'a remote-viewer credential may read the assistant settings, never change them',
  },
  'assistant.model_not_offered': {
    kinds: ['invalid'],
    description:
      'the model named in the settings is not one the configured model endpoint or the connected account offers (`models` in the details)',
  },
  'assistant.auto_run_write_tool': {
    kinds: ['invalid'],
    description:
      'autoRunReadTools may name only tools that read: a tool that writes never runs unconfirmed (`tools` in the details)',
  },
  'assistant.remote_viewer_invalid': {
    kinds: ['invalid'],
    description:
      'a remote-viewer credential needs a local agent of the visitor, an http(s) home base URL and a lifetime within the limit',
  },
  ...ASSISTANT_ACCOUNT_ERROR_CODES,
  ...ASSISTANT_ATTACHMENT_ERROR_CODES,
} as const satisfies ErrorCodeList;
