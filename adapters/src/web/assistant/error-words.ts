// The assistant's refusals as its conversation pages show them. Most codes read as on any page
// (error-words.ts); a message that was not sent says so, since the person reading the conversation
// wants to know what happened to it. The code stays in small print beside the words.
import type { DomainError } from '@tributary/domain';
import { notice } from '../components.js';
import { errorWords, PAGE_ERROR_WORDS } from '../error-words.js';
import { html } from '../html.js';

/** Where a conversation's page words a code otherwise than the other pages. */
export const ASSISTANT_ERROR_WORDS: Readonly<Record<string, string>> = {
  'assistant.model_unavailable':
    'The assistant’s language model did not answer in time, or could not be reached. Your message was not sent: try again in a moment.',
  'assistant.model_malformed':
    'The assistant’s language model answered something that could not be read. Your message was not sent: try again.',
  'assistant.account_reconnect_needed':
    'Your connected account has to be connected again (see “Connected account”). Your message was not sent.',
  'auth.required': 'Sign in again to talk to the assistant.',
  'input.invalid': 'Your message could not be read. Write it again.',
};

/** The codes a message sent by script can meet (the assistant's, a sign-in's, a request's). */
const CHAT_CODE = /^(assistant|auth|input|log|request|server|service)\./;

/** The words the conversation's script shows for a refusal of a message it sent (sentences only). */
export function chatErrorWords(): Record<string, string> {
  const words: Record<string, string> = {};
  for (const [code, w] of Object.entries(PAGE_ERROR_WORDS))
    if (CHAT_CODE.test(code) && typeof w === 'string') words[code] = w;
  return { ...words, ...ASSISTANT_ERROR_WORDS };
}

/** A refusal as the assistant's pages show it: what happened in words, the code in small print. */
export const assistantProblem = (e: Pick<DomainError, 'code' | 'message' | 'details'>) =>
  notice(
    'error',
    html`<p>
        <strong
          >${ASSISTANT_ERROR_WORDS[e.code] ?? errorWords(e) ?? `That did not work: ${e.message}.`}</strong
        >
      </p>
      <p class="small muted">Error code: <code data-error-code="${e.code}">${e.code}</code></p>`,
  );
