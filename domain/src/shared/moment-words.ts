// A moment as a person reads it: "6 Dec 2026, 15:20" in their own time zone, and how long ago it was
// ("5 minutes ago"). Pages, mail and the assistant's plan steps name times this way (docs/web.md#times);
// the exact UTC instant stays in the markup (<time datetime>) for machines and the curious.

/** Zones are IANA names ("Europe/Paris", "UTC"); anything longer or odder is not looked up at all. */
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

// Our own month names: ICU's short English names change between versions ("Sep" or "Sept").
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const formats = new Map<string, Intl.DateTimeFormat>();

/** A formatter per zone, made once: Intl formatters are slow to build and pages show many times. */
function formatIn(zone: string): Intl.DateTimeFormat | null {
  let f = formats.get(zone);
  if (f) return f;
  if (!ZONE_SHAPE.test(zone)) return null;
  try {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    return null; // RangeError: a zone this runtime does not know.
  }
  // Bounded: a zone is only ever one the runtime knows (a few hundred).
  formats.set(zone, f);
  return f;
}

/** Whether `zone` is a time zone this runtime knows (what a browser's Intl reports). */
export const isTimeZone = (zone: unknown): zone is string =>
  typeof zone === 'string' && formatIn(zone) !== null;

/**
 * "6 Dec 2026, 15:20" in `zone`; with `sayZone` (the reader's zone is not known, so this is UTC) the
 * zone follows: "6 Dec 2026, 15:20 UTC". An instant that does not parse is returned as given.
 */
export function momentWords(iso: string, zone: string, o: { sayZone?: boolean } = {}): string {
  const at = new Date(iso);
  const f = formatIn(zone) ?? formatIn('UTC')!;
  if (Number.isNaN(at.getTime())) return iso;
  const parts = Object.fromEntries(f.formatToParts(at).map((p) => [p.type, p.value]));
  const words = `${Number(parts.day)} ${MONTHS[Number(parts.month) - 1]} ${parts.year}, ${parts.hour}:${parts.minute}`;
  return o.sayZone ? `${words} ${formatIn(zone) ? zone : 'UTC'}` : words;
}

/**
 * A moment inside a sentence (the assistant's plan steps and replies): "5 Dec at 14:02" in the person's
 * `zone`, or "5 Dec at 14:02 (UTC)" when their zone is not known (absent, or one Intl does not know).
 */
export function dayAndTimeWords(iso: string, zone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const known = zone !== undefined && formatIn(zone) !== null;
  const parts = Object.fromEntries(
    formatIn(known ? zone : 'UTC')!
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  const words = `${Number(parts.day)} ${MONTHS[Number(parts.month) - 1]} at ${parts.hour}:${parts.minute}`;
  return known ? words : `${words} (UTC)`;
}

const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * How far `iso` is from `now` in words: "just now", "5 minutes ago", "3 hours ago", "2 days ago",
 * "in 10 minutes"; null beyond 30 days, where the date itself says more.
 */
export function relativeWords(iso: string, now: Date): string | null {
  const at = new Date(iso).getTime();
  if (Number.isNaN(at)) return null;
  const seconds = Math.round((now.getTime() - at) / 1000);
  const s = Math.abs(seconds);
  if (s < 60) return 'just now';
  const span =
    s < 3600
      ? unit(Math.floor(s / 60), 'minute')
      : s < 86_400
        ? unit(Math.floor(s / 3600), 'hour')
        : s < 30 * 86_400
          ? unit(Math.floor(s / 86_400), 'day')
          : null;
  if (!span) return null;
  return seconds > 0 ? `${span} ago` : `in ${span}`;
}

let choices: readonly string[] | null = null;

/**
 * The zones a person may choose for their account (svc.account.set_time_zone): the IANA names this
 * runtime lists (`Intl.supportedValuesOf('timeZone')`, sorted by name), with `UTC` among them.
 */
export function timeZoneChoices(): readonly string[] {
  if (choices) return choices;
  const zones = Intl.supportedValuesOf('timeZone');
  choices = Object.freeze(zones.includes('UTC') ? [...zones].sort() : [...zones, 'UTC'].sort());
  return choices;
}

/** Whether `zone` is one of `timeZoneChoices()` (an alias such as `US/Pacific` or `utc` is not). */
export const isChoosableTimeZone = (zone: unknown): zone is string =>
  typeof zone === 'string' && timeZoneChoices().includes(zone);

/**
 * The zone's offset from UTC at `at`, as "UTC+01:00" ("UTC+00:00" for UTC itself), or null for a zone
 * this runtime does not know. Summer time moves it, so it is the offset at that moment.
 */
export function utcOffsetWords(zone: string, at: Date): string | null {
  const f = offsetFormatIn(zone);
  const name = f?.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  if (!name) return null;
  // "GMT+01:00", "GMT-03:30", or plain "GMT" when the offset is zero.
  return name === 'GMT' ? 'UTC+00:00' : name.replace(/^GMT/, 'UTC');
}

const offsetFormats = new Map<string, Intl.DateTimeFormat | null>();

/** An offset formatter per zone, made once (the list of zones builds one for each of a few hundred). */
function offsetFormatIn(zone: string): Intl.DateTimeFormat | null {
  const made = offsetFormats.get(zone);
  if (made !== undefined) return made;
  if (!ZONE_SHAPE.test(zone)) return null;
  let f: Intl.DateTimeFormat | null;
  try {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
  } catch {
    f = null; // RangeError: a zone this runtime does not know.
  }
  // Bounded: only a zone that passes the shape check, and the list is a few hundred.
  if (f || offsetFormats.size < 1000) offsetFormats.set(zone, f);
  return f;
}
