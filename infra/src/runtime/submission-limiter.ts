// Form submissions per client and form, within a minute and within a day (BUILDER_FORM_SUBMISSIONS_PER_*),
// in this process's memory: nothing about a sender is ever written down, and a restart forgets the
// counts. With several processes each keeps its own (docs/builder.md#forms-and-submissions).
import type { SubmissionLimiter } from '@tributary/services';

/** Keys held at most; the least recently seen is forgotten first, so a flood of addresses costs bounded memory. */
export const SUBMISSION_LIMITER_MAX_KEYS = 100_000;

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Counts {
  minuteStart: number;
  minute: number;
  dayStart: number;
  day: number;
}

export function createSubmissionLimiter(o: {
  perMinute: number;
  perDay: number;
  maxKeys?: number;
}): SubmissionLimiter {
  const maxKeys = o.maxKeys ?? SUBMISSION_LIMITER_MAX_KEYS;
  const keys = new Map<string, Counts>();
  return {
    take(key, at) {
      const t = at.getTime();
      let c = keys.get(key);
      if (c)
        keys.delete(key); // re-inserted below: the Map's order is then least recently seen first
      else {
        c = { minuteStart: t, minute: 0, dayStart: t, day: 0 };
        if (keys.size >= maxKeys) keys.delete(keys.keys().next().value!);
      }
      if (t - c.minuteStart >= MINUTE_MS) Object.assign(c, { minuteStart: t, minute: 0 });
      if (t - c.dayStart >= DAY_MS) Object.assign(c, { dayStart: t, day: 0 });
      keys.set(key, c);
      const waits = [
        c.minute >= o.perMinute ? c.minuteStart + MINUTE_MS - t : 0,
        c.day >= o.perDay ? c.dayStart + DAY_MS - t : 0,
      ];
      const wait = Math.max(...waits);
      if (wait > 0) return Math.max(1, Math.ceil(wait / 1000));
      c.minute += 1;
      c.day += 1;
      return 0;
    },
  };
}
