// The bytes an envelope's signature covers, kept with an envelope parsed from a canonical text: every
// envelope a peer sends and every row of our log is canonical, so its signing input is that text
// without the `sig` member, and verifying it need not serialize the parsed object all over again.
const SIGNING_TEXT = Symbol('tributary.signingText');

/**
 * Attaches `signingText` to the parsed `envelope`, and deep-freezes the envelope so that what it says
 * can no longer drift from the bytes that were verified. The property is a non-enumerable symbol:
 * JSON.stringify, Object.keys, spreads and schema checks never see it.
 */
export function rememberSigningText(envelope: object, signingText: string): void {
  Object.defineProperty(envelope, SIGNING_TEXT, { value: signingText });
  deepFreeze(envelope);
}

/** The signing text attached to `envelope` by `rememberSigningText`, if any. */
export function signingTextOf(envelope: object): string | undefined {
  const text = (envelope as { [SIGNING_TEXT]?: unknown })[SIGNING_TEXT];
  return typeof text === 'string' ? text : undefined;
}

/**
 * `text` without the member at [start, end) and the comma that separates it (a canonical text has no
 * whitespace, so that comma is right before the member, or right after it when it comes first).
 */
export function withoutMember(text: string, member: { start: number; end: number }): string {
  if (text.charCodeAt(member.start - 1) === 0x2c)
    return text.slice(0, member.start - 1) + text.slice(member.end);
  const end = text.charCodeAt(member.end) === 0x2c ? member.end + 1 : member.end;
  return text.slice(0, member.start) + text.slice(end);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}
