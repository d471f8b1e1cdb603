// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { shortId, type DescribeStep } from '../shared/step-words.js';

export const assistantStepWords: Record<string, DescribeStep> = {
  'svc.assistant.chat': () => 'Talk to the assistant',
  'svc.assistant.list_threads': () => 'List your conversations with the assistant',
  'svc.assistant.read_thread': () => 'Read a conversation with the assistant',
  'svc.assistant.delete_thread': () => 'Delete a conversation with the assistant',
  'svc.assistant.read_plan': () => 'Read an assistant plan',
  'svc.assistant.decide_actions': (a) =>
    a.decision === 'cancel' ? 'Cancel the actions of a message' : 'Confirm the actions of a message',
  'svc.assistant.confirm_plan': () => 'Confirm an assistant plan',
  'svc.assistant.read_settings': () => 'Read the assistant’s settings',
  'svc.assistant.update_settings': () => 'Change the assistant’s settings',
  'svc.assistant.status': () => 'Read the assistant’s status',
  'svc.assistant.list_provenance': () => 'List what the assistant did',
  'svc.assistant.read_credential': () => 'Read what the assistant acts as',
  'svc.assistant.read_vault': () => 'Read the vault document',
  'svc.assistant.account.read': () => 'Read the connected external assistant account',
  'svc.assistant.account.start_sign_in': () => 'Start connecting an external assistant account',
  'svc.assistant.account.poll_sign_in': (a) =>
    `Check on connecting an external account (${shortId(a.signInId)})`,
  'svc.assistant.account.list_models': () => 'List the models of the connected account',
  'svc.assistant.account.disconnect': () => 'Disconnect the external assistant account',
  'svc.assistant.add_attachment': () => 'Hand the assistant a picture',
};
