// Which reads the assistant runs without asking, in areas a person recognises rather than tool ids
// (docs/assistant.md#settings). A read changes nothing and its result reaches the model as data, so
// reads of the person's own data run at once by default; the person can narrow that area by area.
// What other instances sent and the operators' views ask first unless the person turns them on.
import type { Operation } from '../pipeline/operation.js';

export const READ_AREAS = [
  'personas',
  'sites',
  'submissions',
  'worlds',
  'activity',
  'assistant',
  'access',
  'money',
  'account',
  'federation',
  'operator',
] as const;
export type ReadArea = (typeof READ_AREAS)[number];

/** Each area in words, as the settings show it. */
export const READ_AREA_WORDS: Record<ReadArea, { label: string; note: string }> = {
  personas: {
    label: 'Your identities, profile and whom you follow',
    note: 'list identities, read a profile, list followed agents',
  },
  sites: {
    label: 'Your sites: settings, drafts, versions, media, forms and addresses',
    note: 'list and read sites, drafts, versions, media, forms and domains',
  },
  submissions: {
    label: 'What visitors sent through your forms',
    note: 'list and export form submissions (their words are treated as data)',
  },
  worlds: { label: 'Your worlds', note: 'list and read worlds and their spatial graphs' },
  activity: {
    label: 'What was done on your behalf',
    note: 'recent tool calls and your events on the log',
  },
  assistant: {
    label: 'Your conversations with the assistant and its settings',
    note: 'threads, plans, the vault, what the assistant did',
  },
  access: {
    label: 'Your access: tokens and sessions on other instances',
    note: 'list tokens, list remote sessions',
  },
  money: { label: 'Your wallet: balance, receipts and payouts', note: 'read-only; nothing is paid' },
  account: {
    label: 'Your account and this instance’s context',
    note: 'the data export, the instance context',
  },
  federation: {
    label: 'What other instances sent (the event feed)',
    note: 'content from other instances; off unless you turn it on',
  },
  operator: {
    label: 'Operator views of this instance (operators only)',
    note: 'peers, run-time settings, the outbox, suspended sites, payment reconciliation',
  },
};

/** Areas whose reads run without asking until the person says otherwise: their own data. */
export const DEFAULT_READ_AREAS: readonly ReadArea[] = READ_AREAS.filter(
  (a) => a !== 'federation' && a !== 'operator',
);

const BY_CAPABILITY: Record<string, ReadArea> = {
  agent: 'personas',
  profile: 'personas',
  builder: 'sites',
  spatial: 'worlds',
  audit: 'activity',
  log: 'activity',
  assistant: 'assistant',
  tokens: 'access',
  sso: 'access',
  wallet: 'money',
  payments: 'money',
  account: 'account',
  instance: 'account',
  federation: 'federation',
  mail: 'operator',
};

const SUBMISSION_READS = new Set(['svc.builder.list_submissions', 'svc.builder.export_submissions']);

/** The area a read belongs to; undefined for a tool no area names (it then always asks first). */
export function readAreaOf(
  op: Pick<Operation<unknown, unknown>, 'name' | 'controllerOnly'>,
): ReadArea | undefined {
  if (op.controllerOnly) return 'operator';
  if (SUBMISSION_READS.has(op.name)) return 'submissions';
  return BY_CAPABILITY[op.name.split('.')[1] ?? ''];
}
