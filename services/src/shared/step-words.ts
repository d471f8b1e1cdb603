// How a plan step reads to a person (docs/assistant.md#plans): each area keeps a sentence per operation
// beside its operations (`<area>/step-words.ts`), and services/src/step-words.ts composes them. Ids in
// the arguments are shown as the names they stand for (`StepNames`); the raw arguments stay available
// under "details".

/** The names ids stand for, looked up before a plan is described. */
export interface StepNames {
  /** An agent: its name in quotes, "you" for the person, or a short id when unknown. */
  agent(id: unknown): string;
  /** A site: "your default site" when none is named, else its title in quotes. */
  site(id: unknown): string;
  /** A version: "the version published on 5 Dec at 14:02", or when it was made if never published. */
  version(id: unknown): string;
  /** A world of the person's: its label in quotes, else a short id. */
  world(id: unknown): string;
  /** A form of the person's: its name in quotes, else a short id. */
  form(id: unknown): string;
  /** An image of the person's: its file name in quotes, else a short id. */
  media(id: unknown): string;
  /** A form submission: the form it was sent to and when. */
  submission(id: unknown): string;
}

export type DescribeStep = (args: Record<string, unknown>, names: StepNames) => string;

/** A value from the arguments, quoted (and cut short) as a person reads it in a sentence. */
export function q(value: unknown, max = 60): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value ?? '');
  const one = text.replace(/\s+/g, ' ').trim();
  return `‘${one.length > max ? `${one.slice(0, max - 1)}…` : one}’`;
}

/** "… named ‘x’" when a value is given, else nothing. */
export const opt = (before: string, value: unknown) =>
  value === undefined || value === null || value === '' ? '' : ` ${before} ${q(value)}`;

/** An id shown briefly (the full one is under "details"). */
export const shortId = (value: unknown) => (typeof value === 'string' ? `…${value.slice(-6)}` : '');

/** "2 items" / "1 item". */
export const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The verbs plan steps start with, as what was done (a unit test holds every sentence to this list). */
export const DONE_VERBS: Readonly<Record<string, string>> = {
  Add: 'Added',
  Admit: 'Admitted',
  Change: 'Changed',
  Check: 'Checked',
  Choose: 'Chose',
  Confirm: 'Confirmed',
  Create: 'Created',
  Delete: 'Deleted',
  Disable: 'Disabled',
  Disconnect: 'Disconnected',
  Enable: 'Enabled',
  End: 'Ended',
  Export: 'Exported',
  Follow: 'Followed',
  Give: 'Gave',
  Hand: 'Handed',
  Issue: 'Issued',
  Lift: 'Lifted',
  List: 'Listed',
  Make: 'Made',
  Mark: 'Marked',
  Move: 'Moved',
  Pay: 'Paid',
  Pin: 'Pinned',
  Publish: 'Published',
  Read: 'Read',
  Refund: 'Refunded',
  Redo: 'Redid',
  Register: 'Registered',
  Release: 'Released',
  Remove: 'Removed',
  Restore: 'Restored',
  Revoke: 'Revoked',
  Rotate: 'Rotated',
  Save: 'Saved',
  See: 'Saw',
  Send: 'Sent',
  Serve: 'Served',
  Set: 'Set',
  Sign: 'Signed',
  Start: 'Started',
  Stop: 'Stopped',
  Suspend: 'Suspended',
  Talk: 'Talked',
  Undo: 'Undid',
  Unfollow: 'Unfollowed',
  Update: 'Updated',
  Upload: 'Uploaded',
  Verify: 'Verified',
  Withdraw: 'Withdrew',
};

/** A step's sentence as what was done: "Create an identity …" → "Created an identity …". */
export function doneWords(sentence: string): string {
  const [verb = '', ...rest] = sentence.split(' ');
  const done = DONE_VERBS[verb];
  return done ? [done, ...rest].join(' ') : `Done: ${sentence}`;
}
