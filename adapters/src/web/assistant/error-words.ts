// The assistant's refusals in plain words, for the pages (the code stays in small print beside them).
// What the API says is a short engineer's sentence; a person reading the conversation needs what
// happened to their message or plan and what to do next.
import type { DomainError } from '@tributary/domain';
import { notice } from '../components.js';
import { html } from '../html.js';

export const ASSISTANT_ERROR_WORDS: Readonly<Record<string, string>> = {
  'assistant.model_unavailable':
    'The assistant’s language model did not answer in time, or could not be reached. Your message was not sent: try again in a moment.',
  'assistant.model_malformed':
    'The assistant’s language model answered something that could not be read. Your message was not sent: try again.',
  'assistant.account_reconnect_needed':
    'Your connected account has to be connected again (see “Connected account”). Your message was not sent.',
  'assistant.message_too_long': 'Your message is too long: a message holds at most 8,000 characters.',
  'assistant.thread_not_found': 'This conversation does not exist any more: it may have been deleted.',
  'assistant.message_not_found': 'That message proposes no plan any more.',
  'assistant.attachment_not_found':
    'A picture attached to your message is no longer available: attach it again.',
  'assistant.plan_not_found': 'That plan does not exist any more: its conversation may have been deleted.',
  'assistant.plan_already_confirmed':
    'This plan had already been confirmed, so it was not confirmed twice. What each step did is shown in the plan below.',
  'assistant.plan_cancelled': 'This plan had been cancelled, so nothing of it ran.',
  'assistant.plan_expired':
    'This plan waited too long for your confirmation and expired, so nothing of it ran. Ask again for a fresh plan.',
  'assistant.plan_altered':
    'This plan is no longer the one you were shown, so nothing of it ran. Reload the page to see it as it is.',
  'assistant.step_unknown': 'That step is not part of the plan.',
  'assistant.scope_not_covered': 'You may not run every step of this plan yourself, so none of it ran.',
  'assistant.spend_needs_person':
    'A step that moves money runs only when you confirm it yourself, signed in.',
  'auth.required': 'Sign in again to talk to the assistant.',
  'input.invalid': 'Your message could not be read. Write it again.',
};

/** A refusal as the assistant's pages show it: what happened in words, the code in small print. */
export const assistantProblem = (e: Pick<DomainError, 'code' | 'message'>) =>
  notice(
    'error',
    html`<p><strong>${ASSISTANT_ERROR_WORDS[e.code] ?? `That did not work: ${e.message}.`}</strong></p>
      <p class="small muted">Error code: <code data-error-code="${e.code}">${e.code}</code></p>`,
  );
