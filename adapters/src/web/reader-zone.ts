// Whose clock a page's times are in (docs/web.md#times). app.js puts the browser's time zone in the `tz`
// cookie; each request's zone (validated: only a zone Intl knows) and its "now" are kept for the request
// in an AsyncLocalStorage, so `when()` can write every time in the reader's zone from deep inside any
// component without the zone threaded through every page function. With no cookie (the first page, no
// JavaScript) the times are in UTC and say so. A person may choose the zone on their home page instead:
// the server sets the same cookie, and `tz_chosen` tells app.js to leave it as chosen.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parse as parseCookies } from 'cookie';
import type { RequestHandler, Response } from 'express';
import { isTimeZone } from '@tributary/domain';

/** The cookie app.js sets: the browser's IANA zone, e.g. `Europe/Paris`. */
export const TIME_ZONE_COOKIE = 'tz';

export interface ReaderClock {
  /** The zone the times are written in. */
  zone: string;
  /** False when the reader's zone is not known (no or a bad cookie): UTC, and the times say "UTC". */
  known: boolean;
  /** The moment the request came in, for "5 minutes ago". */
  now: Date;
}

const storage = new AsyncLocalStorage<ReaderClock>();

/** Set beside `tz` when the person chose the zone on a page: app.js then does not replace it. */
export const CHOSEN_ZONE_COOKIE = 'tz_chosen';

/** Whether the request's zone was chosen on a page (else it is the browser's, or none). */
export const zoneChosen = (cookieHeader: string | undefined): boolean =>
  parseCookies(cookieHeader ?? '')[CHOSEN_ZONE_COOKIE] === '1';

/** The zones a person may choose: those Intl knows, UTC among them. */
export function timeZoneChoices(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

/**
 * The zone the person chose (the `tz` cookie, as app.js writes it, and `tz_chosen`), or, with null, the
 * browser's again: both cookies go, and the next page with scripts on sets the browser's.
 */
export function chooseZone(res: Response, zone: string | null, o: { secure: boolean }) {
  // Not HttpOnly: app.js reads both (docs/web.md#times). A year, like app.js's own.
  const options = { path: '/', sameSite: 'lax' as const, secure: o.secure, encode: (v: string) => v };
  if (zone === null) {
    res.clearCookie(TIME_ZONE_COOKIE, options);
    res.clearCookie(CHOSEN_ZONE_COOKIE, options);
    return;
  }
  const maxAge = 365 * 24 * 3600 * 1000;
  res.cookie(TIME_ZONE_COOKIE, zone, { ...options, maxAge });
  res.cookie(CHOSEN_ZONE_COOKIE, '1', { ...options, maxAge });
}

/** The zone a request's `tz` cookie names, or null when it names none Intl knows. */
export function zoneOfCookie(cookieHeader: string | undefined): string | null {
  const zone = parseCookies(cookieHeader ?? '')[TIME_ZONE_COOKIE];
  return isTimeZone(zone) ? zone : null;
}

/** Middleware: the rest of the request runs with the reader's zone (and the clock's now) at hand. */
export function readerZone(now: () => Date): RequestHandler {
  return (req, _res, next) => {
    const zone = zoneOfCookie(req.headers.cookie);
    storage.run({ zone: zone ?? 'UTC', known: zone !== null, now: now() }, next);
  };
}

/** The request's reader clock; outside a request (a test rendering a component), UTC and unknown. */
export const readerClock = (): ReaderClock =>
  storage.getStore() ?? { zone: 'UTC', known: false, now: new Date() };

/** Runs `f` as if a reader in `zone` asked at `now` (tests of components, mail rendered for a person). */
export const withReaderClock = <T>(clock: ReaderClock, f: () => T): T => storage.run(clock, f);
