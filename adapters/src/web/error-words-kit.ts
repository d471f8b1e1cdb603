// What the tables of refusals in words share (docs/web.md#errors): a refusal as a page sees it, an
// entry (a sentence, or a function of the refusal's details), and the small helpers the entries use.

/** A domain error, or a problem a surface answers itself (route.not_found, request.rate_limited). */
export interface Refusal {
  code: string;
  message: string;
  details?: Readonly<Record<string, unknown>> | undefined;
}
export type Words = string | ((e: Refusal) => string);
export type WordsTable = Readonly<Record<string, Words>>;

export const detail = (e: Refusal, key: string) => e.details?.[key];
export const count = (n: unknown, one: string) =>
  typeof n === 'number' ? `${n} ${one}${n === 1 ? '' : 's'}` : `some ${one}s`;
/** The API message as the end of a sentence ("…: the address is too short"). */
export const because = (e: Refusal) => e.message.replace(/\.$/, '');

/** How long to wait, from a refusal's `retryAfter` seconds: "in 40 seconds", "in 3 minutes", "later". */
export function waitWords(e: Refusal): string {
  const s = Number(detail(e, 'retryAfter'));
  if (!Number.isFinite(s) || s <= 0) return 'in a few minutes';
  if (s < 90) return `in ${Math.ceil(s)} second${Math.ceil(s) === 1 ? '' : 's'}`;
  if (s < 90 * 60) return `in ${Math.round(s / 60)} minutes`;
  const hours = Math.round(s / 3600);
  return hours <= 1 ? 'in about an hour' : `in about ${hours} hours`;
}
