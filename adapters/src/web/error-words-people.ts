// Refusals in words for the pages a person meets before and around their work: signing up and in,
// passwords and the account's mail links, identities (personas in the API), agent access (tokens, OAuth consent, devices and
// connected apps) and single sign-on (docs/web.md#errors). The code stays beside them in small print.
import { bytesInWords } from '@tributary/domain';
import { because, detail, waitWords, type WordsTable } from './error-words-kit.js';

export const AUTH_ERROR_WORDS: WordsTable = {
  'auth.required': 'You are signed out. Sign in again, then try again.',
  'auth.invalid_credentials':
    'That did not match an account here. Check the handle or email and the password, and try again.',
  'auth.throttled': (e) =>
    `Too many tries with a wrong password, so trying is paused for a while. Try again ${waitWords(e)}.`,
  'auth.session_required':
    'Only you, signed in on this instance, can do this; an app or agent acting for you cannot. Sign in and do it here.',
  'auth.controller_only': 'Only an operator of this instance can do this. Ask one of them.',
  'auth.insufficient_scope':
    'The access used here does not allow this. Give the agent a token that may do it, on the Agent access page.',
  'auth.remote_viewer_not_allowed':
    'You are visiting from your home instance, so you can look but not change anything here. Sign in with an account on this instance to do that.',
  'auth.tool_not_enabled':
    'This is not something the assistant or an agent may do for you. Do it yourself on its page.',
};

export const ACCOUNT_ERROR_WORDS: WordsTable = {
  'account.identifier_required': 'Give a handle (or an email address) for the account.',
  'account.email_taken':
    'An account here already has this email address. If it is yours, sign in or reset your password; otherwise use another address.',
  'account.required':
    'Only a person with an account here can do this, not a token or a visitor from another instance. Sign in with your account.',
  'account.signup_closed':
    'Sign-up is closed on this instance: its operators are not taking new accounts for now.',
  'account.setup_code_required':
    'To become the operator of this instance, give the setup code printed where it was started (it is also in the file setup-code in its data folder).',
  'account.setup_code_invalid':
    'That is not the setup code this instance printed. Copy it again from where it was started, or from the file setup-code in its data folder.',
  'account.disabled':
    'An operator of this instance disabled this account, so it cannot sign in. Ask them if you think it is a mistake.',
  'account.is_operator':
    'An operator’s account cannot be disabled. Take away its operator role first (another operator must be left).',
  'account.handle_reserved':
    'That handle is kept back on this instance (like admin or support). Choose another one.',
  'account.time_zone_unknown':
    'That is not a time zone of the list. Choose one from the list, for example Europe/Paris, or your browser’s own.',
  'account.not_found': 'There is no account with that handle, email or id here. Check it and try again.',
  'agent.not_found':
    'That identity does not exist, or it is not yours. It may have been deleted: reload the page.',
  'agent.not_a_persona': 'Only one of your other identities can be deleted, not the one that is you.',
  'agent.handle_taken': 'Someone here already has this handle. Choose another one.',
  'agent.persona_cannot_own':
    'An identity cannot have identities of its own. Create it for yourself instead.',
};

export const MAIL_ERROR_WORDS: WordsTable = {
  'mail.unavailable':
    'This instance cannot send mail from here just now. Try again later, or ask its operator.',
  'mail.rate_limited': (e) =>
    `Too many emails went to this address just now, so no other was sent. Try again ${waitWords(e)}.`,
  'mail.bad_address':
    'The email address of your account is not one address we can send to. Change it, then try again.',
  'mail.no_email': 'Your account has no email address to verify. Add one first.',
  'mail.token_invalid':
    'This link does not work: it was used already, it expired, or it is not a link we sent. Ask for a new one.',
  'sso.assertion_rejected':
    'Signing in through your home instance did not work: the sign-in it sent was not accepted. Start again from its sign-in page.',
  'sso.password_held_at_home':
    'Your password for this account is kept by your home instance, which checks it when you sign in, so it can only be changed there. Nothing was changed here.',
  'sso.unknown_audience':
    'That instance is not one this instance signs you in to. Check the link, or ask its operator.',
  'sso.password_rejected':
    'That did not match an account. Check the handle or email and the password, and try again.',
  'sso.global_unreachable':
    'Your home instance, which checks your password, could not be reached just now. Try again in a few minutes.',
  'sso.no_home_instance':
    'There is no home instance to continue to: you did not come here from one. Sign in here instead.',
  'sso.account_already_linked':
    'This account is already linked to another person at your home instance. Sign in with the account that is yours.',
  'sso.agent_already_linked':
    'Your account at your home instance is already linked to another account here. Sign in with that account.',
};

export const ACCESS_ERROR_WORDS: WordsTable = {
  'token.not_found':
    'That token is not among yours any more: it may have been revoked already. Reload the page to see your tokens.',
  'token.scopes_required': 'A token needs at least one thing it may do: tick at least one below.',
  'token.scope_invalid':
    'Something the token was to be allowed is not a permission this instance knows. Tick them again from the list.',
  'token.scope_not_grantable':
    'You may not give a token one of the permissions ticked (operating the instance is for its operators). Untick it.',
  'token.session_required':
    'Only you, signed in, can issue tokens; a token or an app cannot. Sign in and do it here.',
  'token.unavailable': 'This instance cannot issue tokens just now. Try again later, or ask its operator.',
  'oauth.invalid_request':
    'The app sent a request this instance cannot read, so it was not connected. Start again from the app.',
  'oauth.invalid_client':
    'This app cannot be identified, so it cannot be connected. The people who made it have to fix how it describes itself.',
  'oauth.invalid_grant':
    'That connection request is no longer valid: it was used, it expired, or it was not for this app. Start again from the app.',
  'oauth.invalid_scope':
    'The app asked for permissions this instance does not give, so it was not connected. Start again from the app.',
  'oauth.invalid_target':
    'The app asked to be connected to something this instance does not serve. Start again from the app.',
  'oauth.access_denied': 'The connection was refused, so the app was not connected.',
  'oauth.expired_token':
    'The code shown on your device has run out. Start again on the device to get a new one.',
  'oauth.temporarily_unavailable':
    'This instance cannot connect apps just now. Try again later, or ask its operator.',
  'oauth.grant_not_found':
    'That app is not connected any more: it may have been revoked already. Reload the page to see your apps.',
};

export const ASSISTANT_PAGE_ERROR_WORDS: WordsTable = {
  'assistant.thread_not_found': 'This conversation does not exist any more: it may have been deleted.',
  'assistant.message_not_found':
    'That message is not in the conversation any more, or it proposes no plan. Reload the page.',
  'assistant.plan_not_found': 'That plan does not exist any more: its conversation may have been deleted.',
  'assistant.message_too_long': (e) =>
    `Your message is too long: a message holds at most ${typeof detail(e, 'limit') === 'number' ? (detail(e, 'limit') as number).toLocaleString('en-GB') : '8,000'} characters. Shorten it and send it again.`,
  'assistant.plan_already_confirmed':
    'This plan had already been confirmed, so it was not confirmed twice. What each step did is shown in the plan below.',
  'assistant.plan_cancelled': 'This plan had been cancelled, so nothing of it ran.',
  'assistant.plan_expired':
    'This plan waited too long for your confirmation and expired, so nothing of it ran. Ask again for a fresh plan.',
  'assistant.plan_altered':
    'This plan is no longer the one you were shown, so nothing of it ran. Reload the page to see it as it is.',
  'assistant.step_unknown': 'That step is not part of the plan. Reload the page to see its steps.',
  'assistant.step_already_finished':
    'That step has already run, failed or been skipped: a step runs at most once.',
  'assistant.step_not_confirmed': 'That step was not confirmed, so it did not run.',
  'assistant.plan_too_large': (e) =>
    `The plan has too many steps${typeof detail(e, 'limit') === 'number' ? ` (at most ${String(detail(e, 'limit'))})` : ''}. Ask for less at a time.`,
  'assistant.scope_not_covered': 'You may not run every step of this plan yourself, so none of it ran.',
  'assistant.spend_needs_person':
    'A step that moves money runs only when you confirm it yourself, signed in.',
  'assistant.unknown_tool':
    'The assistant tried to use something it may not use here, so that part was left out. Ask again in other words.',
  'assistant.malformed_tool_call':
    'The assistant proposed a step it could not write properly, so it was left out. Ask again.',
  'assistant.untrusted_instruction':
    'The assistant proposed a change after reading text from outside (a page, a picture or a peer), so it was not added to the plan. If you want that change, ask for it yourself.',
  'assistant.model_unavailable':
    'The assistant’s language model did not answer in time, or could not be reached. Try again in a moment.',
  'assistant.model_malformed':
    'The assistant’s language model answered something that could not be read. Try again.',
  'assistant.remote_viewer_read_only':
    'You are visiting from your home instance: you can see the assistant’s settings but not change them.',
  'assistant.model_not_offered': 'That model is not one on offer here. Choose one from the list.',
  'assistant.auto_run_write_tool':
    'Only what reads can run without asking; anything that changes something always waits for your confirmation. Untick it.',
  'assistant.remote_viewer_invalid':
    'A visitor’s access could not be made: it needs one of their agents here, the http(s) address of their home and a lifetime within the limit.',
  'assistant.provider_not_configured':
    'No outside assistant provider is set up on this instance, so no account can be connected. Ask its operator.',
  'assistant.provider_error':
    'The assistant provider could not be reached, or answered something unusable. Try again in a few minutes.',
  'assistant.sign_in_not_found':
    'That sign-in is not waiting any more: it finished, was replaced or ran out. Start again.',
  'assistant.sign_in_denied':
    'The sign-in was refused at the provider, so no account was connected. Start again if that was a mistake.',
  'assistant.sign_in_expired': 'The code ran out before it was approved. Start the sign-in again.',
  'assistant.account_not_connected': 'No account is connected for this agent. Connect one first.',
  'assistant.account_reconnect_needed':
    'The provider no longer accepts the connection. Disconnect the account and sign in again.',
  'assistant.attachment_not_found':
    'A picture attached to your message is no longer available: attach it again.',
  'assistant.attachment_unsupported_type':
    'That file is not a picture the assistant can use. Attach a PNG, JPEG, WebP or GIF picture.',
  'assistant.attachment_unreadable':
    'That picture could not be opened: the file may be damaged or cut short. Save it again and attach it again.',
  'assistant.attachment_too_large': (e) =>
    `That picture is too big: a picture is at most ${typeof detail(e, 'maxBytes') === 'number' ? bytesInWords(detail(e, 'maxBytes') as number) : 'the size this instance allows'}. Make it smaller and attach it again.`,
  'assistant.attachment_too_many_pixels': (e) =>
    `That picture has too many pixels (${because(e)}). Make it smaller and attach it again.`,
  'assistant.attachment_upload_malformed': 'The picture did not arrive whole. Choose it and attach it again.',
};
