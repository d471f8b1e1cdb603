// This area's operations as plan steps read (services/src/shared/step-words.ts).
import { q, type DescribeStep } from '../shared/step-words.js';

export const accountsStepWords: Record<string, DescribeStep> = {
  'svc.auth.sign_up': (a) => `Sign up as ${q(a.handle)}`,
  'svc.auth.sign_in': () => 'Sign in',
  'svc.auth.sign_out': () => 'Sign out',
  'svc.account.export_data': () => 'Export all your data',
  'svc.account.set_discoverable': (a) =>
    a.discoverable ? 'Let people find you in user search' : 'Stop people finding you in user search',
  'svc.account.set_time_zone': (a) =>
    typeof a.timeZone === 'string'
      ? `Choose ${q(a.timeZone)} as the time zone of your pages`
      : 'Choose each browser’s own time zone for your pages',
  'svc.account.send_verification_email': () => 'Send you an email to verify your address',
  'svc.auth.verify_email': () => 'Verify your email address',
  'svc.auth.request_password_reset': (a) => `Send a password reset link to ${q(a.email)}`,
  'svc.auth.reset_password': () => 'Choose a new password with a reset link',
};
