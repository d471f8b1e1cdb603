// Whose clock a page's times are in (docs/web.md#times). For a signed-in person who chose a zone, it is
// the zone kept on their account (svc.account.set_time_zone), on every device; the page says so
// (html[data-zone-chosen]) and app.js leaves its times as they are. Otherwise app.js puts the browser's
// time zone in the `tz` cookie, and the times follow it; with no cookie (the first page, no JavaScript)
// they are in UTC and say so. A zone chosen on the home page before the account kept it is still in that
// cookie, with `tz_chosen` telling app.js to leave it, until the person chooses again.
// Each request's zone (validated: only a zone Intl knows) and its "now" are kept for the request in an
// AsyncLocalStorage, so `when()` can write every time in the reader's zone from deep inside any component
// without the zone threaded through every page function.
import { AsyncLocalStorage } from 'node:async_hooks';
import { parse as parseCookies } from 'cookie';
import type { Request, RequestHandler, Response } from 'express';
import { isTimeZone, timeZoneChoices, utcOffsetWords } from '@tributary/domain';
import { principalOf, sessionToken, type HttpContext } from '../http/index.js';

/** The cookie app.js sets: the browser's IANA zone, e.g. `Europe/Paris`. */
export const TIME_ZONE_COOKIE = 'tz';

export interface ReaderClock {
  /** The zone the times are written in. */
  zone: string;
  /** False when the reader's zone is not known (no or a bad cookie): UTC, and the times say "UTC". */
  known: boolean;
  /** The moment the request came in, for "5 minutes ago". */
  now: Date;
  /**
   * Who chose the zone: the person, kept on their `account`; the person in `this_browser` only (the
   * cookie, from before the account kept it); or nobody (absent): the browser's own zone, or UTC.
   */
  chosen?: 'account' | 'this_browser';
}

const storage = new AsyncLocalStorage<ReaderClock>();

/** Set beside `tz` when the person chose the zone on a page: app.js then does not replace it. */
export const CHOSEN_ZONE_COOKIE = 'tz_chosen';

/** Whether the request's zone was chosen on a page (else it is the browser's, or none). */
export const zoneChosen = (cookieHeader: string | undefined): boolean =>
  parseCookies(cookieHeader ?? '')[CHOSEN_ZONE_COOKIE] === '1';

/** One zone of the list a person chooses from: its IANA name and its words, "Europe/Paris (UTC+01:00)". */
export interface ZoneChoice {
  zone: string;
  label: string;
}

let lastChoices: { minute: number; list: readonly ZoneChoice[] } | undefined;

/**
 * The zones a person may choose (those Intl lists, with UTC), each with its offset from UTC at `at`,
 * sorted by name so the list reads like a directory and typing "Eu…" in it finds Europe; UTC first.
 */
export function zoneChoices(at: Date): readonly ZoneChoice[] {
  // Offsets change only on the minute (summer time starts or ends): one list per minute serves every page.
  const minute = Math.floor(at.getTime() / 60_000);
  if (lastChoices?.minute === minute) return lastChoices.list;
  const zones = timeZoneChoices(); // sorted by name
  const list = ['UTC', ...zones.filter((z) => z !== 'UTC')].map((zone) => {
    const offset = utcOffsetWords(zone, at);
    const name = zone.replace(/_/g, ' ');
    return { zone, label: zone === 'UTC' || !offset ? name : `${name} (${offset})` };
  });
  lastChoices = { minute, list };
  return list;
}

/**
 * Once the person chose on their account, a zone chosen in this browser before the account kept it
 * (`tz_chosen`, with its zone in `tz`) goes: it would outlive a change made on another device. Both
 * cookies go, and the next page whose zone is not the account's has app.js set the browser's again.
 */
export function forgetZoneChosenHere(req: Request, res: Response, o: { secure: boolean }) {
  if (!zoneChosen(req.headers.cookie)) return;
  const options = { path: '/', sameSite: 'lax' as const, secure: o.secure };
  res.clearCookie(TIME_ZONE_COOKIE, options);
  res.clearCookie(CHOSEN_ZONE_COOKIE, options);
}

/** The zone a request's `tz` cookie names, or null when it names none Intl knows. */
export function zoneOfCookie(cookieHeader: string | undefined): string | null {
  const zone = parseCookies(cookieHeader ?? '')[TIME_ZONE_COOKIE];
  return isTimeZone(zone) ? zone : null;
}

/** The zone kept on the signed-in person's account, or null (no session, none chosen, or not readable). */
async function accountZone(ctx: HttpContext, req: Request): Promise<string | null> {
  // Only a request that carries a session cookie asks; assets and the JSON API write no times in words.
  if (!sessionToken(req, ctx.cookie) || /^\/(assets|api)\//.test(req.path)) return null;
  const principal = await principalOf(ctx, req);
  if (principal.kind !== 'session') return null;
  const account = await ctx.services.accounts.read.accountById(principal.accountId);
  return isTimeZone(account?.timeZone) ? account.timeZone : null;
}

/** The browser's clock: the `tz` cookie's zone (chosen in this browser when `tz_chosen` says so), or UTC. */
function browserClock(req: Request, now: Date): ReaderClock {
  const zone = zoneOfCookie(req.headers.cookie);
  if (zone === null) return { zone: 'UTC', known: false, now };
  return {
    zone,
    known: true,
    now,
    ...(zoneChosen(req.headers.cookie) && { chosen: 'this_browser' as const }),
  };
}

/**
 * Middleware: the rest of the request runs with the reader's zone (and the clock's now) at hand: the
 * account's zone for a signed-in person who chose one, else the browser's.
 */
export function readerZone(ctx: HttpContext): RequestHandler {
  return (req, _res, next) => {
    const now = ctx.services.clock.now();
    accountZone(ctx, req).then(
      (zone) => {
        const clock = zone ? { zone, known: true, now, chosen: 'account' as const } : browserClock(req, now);
        storage.run(clock, next);
      },
      // The session could not be read (the database is away): the browser's zone, and the route answers
      // the failure itself if it needs the session.
      () => storage.run(browserClock(req, now), next),
    );
  };
}

/** The request's reader clock; outside a request (a test rendering a component), UTC and unknown. */
export const readerClock = (): ReaderClock =>
  storage.getStore() ?? { zone: 'UTC', known: false, now: new Date() };

/** Runs `f` as if a reader in `zone` asked at `now` (tests of components, mail rendered for a person). */
export const withReaderClock = <T>(clock: ReaderClock, f: () => T): T => storage.run(clock, f);
