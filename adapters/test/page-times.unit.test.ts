// Times on a person's pages (docs/web.md#times): the words of a moment in a zone and how long ago it
// was (domain/src/shared/moment-words.ts), the `tz` cookie's zone (only one Intl knows), and `when()`
// writing a <time> in the reader's zone, saying "UTC" while the zone is not known.
import {
  dayAndTimeWords,
  isChoosableTimeZone,
  isTimeZone,
  momentWords,
  relativeWords,
  utcOffsetWords,
} from '@tributary/domain';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { when, whenRange, whenText } from '../src/web/components.js';
import { withReaderClock, zoneChoices, zoneOfCookie } from '../src/web/reader-zone.js';

const AT = '2026-12-06T15:20:00.000Z';
const NOW = new Date('2026-12-06T15:25:30.000Z');

describe('a moment in words', () => {
  test('given a UTC instant, when put in Auckland, Paris, New York and UTC, then each reads its own wall clock', () => {
    assert.equal(momentWords(AT, 'Pacific/Auckland'), '7 Dec 2026, 04:20');
    assert.equal(momentWords(AT, 'Europe/Paris'), '6 Dec 2026, 16:20');
    assert.equal(momentWords(AT, 'America/New_York'), '6 Dec 2026, 10:20');
    assert.equal(momentWords(AT, 'UTC'), '6 Dec 2026, 15:20');
  });

  test('given the zone is not known, when written with sayZone, then it says UTC', () => {
    assert.equal(momentWords(AT, 'UTC', { sayZone: true }), '6 Dec 2026, 15:20 UTC');
  });

  test('given September, when written, then the month is Sep whatever ICU calls it', () => {
    assert.equal(momentWords('2026-09-01T00:00:00Z', 'UTC'), '1 Sep 2026, 00:00');
  });

  test('given a zone Intl does not know, when written, then it is UTC and says so', () => {
    assert.equal(momentWords(AT, 'Mars/Olympus', { sayZone: true }), '6 Dec 2026, 15:20 UTC');
  });

  test('given text that is no instant, when written, then it comes back as given', () => {
    assert.equal(momentWords('soon', 'UTC'), 'soon');
  });
});

describe('a moment inside a sentence (the assistant’s steps)', () => {
  test('given the person’s zone, when named, then it is their wall clock without a zone', () => {
    assert.equal(dayAndTimeWords(AT, 'Pacific/Auckland'), '7 Dec at 04:20');
  });

  test('given no zone or one Intl does not know, when named, then it is UTC and says so', () => {
    assert.equal(dayAndTimeWords(AT), '6 Dec at 15:20 (UTC)');
    assert.equal(dayAndTimeWords(AT, 'Mars/Olympus'), '6 Dec at 15:20 (UTC)');
  });
});

describe('how long ago', () => {
  const ago = (iso: string) => relativeWords(iso, NOW);
  test('given moments before now, when put in words, then seconds, minutes, hours and days read as people say them', () => {
    assert.equal(ago('2026-12-06T15:25:00Z'), 'just now');
    assert.equal(ago('2026-12-06T15:24:30Z'), '1 minute ago');
    assert.equal(ago(AT), '5 minutes ago');
    assert.equal(ago('2026-12-06T12:25:30Z'), '3 hours ago');
    assert.equal(ago('2026-12-04T15:25:30Z'), '2 days ago');
  });

  test('given a moment after now, when put in words, then it is "in …"', () => {
    assert.equal(ago('2026-12-06T15:35:30Z'), 'in 10 minutes');
  });

  test('given a moment over 30 days away, when put in words, then there are none (the date says more)', () => {
    assert.equal(ago('2026-10-01T00:00:00Z'), null);
  });
});

describe('the reader’s zone from the tz cookie', () => {
  test('given a zone Intl knows, when read, then it is the zone', () => {
    assert.equal(zoneOfCookie('a=1; tz=Pacific/Auckland'), 'Pacific/Auckland');
    assert.equal(zoneOfCookie('tz=UTC'), 'UTC');
  });

  test('given no cookie, an unknown zone or markup, when read, then there is none', () => {
    assert.equal(zoneOfCookie(undefined), null);
    assert.equal(zoneOfCookie('tz=Mars/Olympus'), null);
    assert.equal(zoneOfCookie('tz=%3Cscript%3E'), null);
    assert.equal(zoneOfCookie(`tz=${'A'.repeat(80)}`), null);
    assert.equal(isTimeZone(42), false);
  });
});

describe('when() on a page', () => {
  test('given a reader in Auckland, when a time is shown, then it is their wall clock, the instant in datetime and UTC in the title', () => {
    const out = withReaderClock({ zone: 'Pacific/Auckland', known: true, now: NOW }, () => when(AT).text);
    assert.match(out, /datetime="2026-12-06T15:20:00.000Z"/);
    assert.match(out, /data-zone="Pacific\/Auckland"/);
    assert.match(out, /title="6 Dec 2026, 15:20 UTC"/);
    assert.match(out, />7 Dec 2026, 04:20<\/time/);
    assert.doesNotMatch(out, /ago/);
  });

  test('given a reader whose zone is not known, when a time is shown, then it is UTC and says so', () => {
    const out = withReaderClock({ zone: 'UTC', known: false, now: NOW }, () => when(AT).text);
    assert.match(out, />6 Dec 2026, 15:20 UTC<\/time/);
    assert.match(out, /data-zone=""/);
  });

  test('given a list, when a time is shown with ago, then how long ago follows', () => {
    const out = withReaderClock(
      { zone: 'Europe/Paris', known: true, now: NOW },
      () => when(AT, 'never', { ago: true }).text,
    );
    assert.match(out, />6 Dec 2026, 16:20<\/time\s*><span class="ago"> · 5 minutes ago<\/span>/);
  });

  test('given no time, when shown, then the word for never', () => {
    assert.equal(when(null, 'not yet').text, 'not yet');
  });

  test('given a label, when a time is written as text, then it is in the reader’s zone', () => {
    assert.equal(
      withReaderClock({ zone: 'Pacific/Auckland', known: true, now: NOW }, () => whenText(AT)),
      '7 Dec 2026, 04:20',
    );
  });
});

describe('whenRange() for a line that stands for several events', () => {
  const text = (html: string) =>
    html
      .replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  const paris = { zone: 'Europe/Paris', known: true, now: NOW };

  test('given two moments of one day, when shown, then the day once and the end as a time alone', () => {
    const out = withReaderClock(paris, () => whenRange('2026-12-06T19:30:00Z', '2026-12-06T19:34:00Z').text);
    assert.equal(text(out), '6 Dec 2026, 20:30–20:34');
    // The end is marked for app.js to rewrite as a time alone; both carry their instant.
    assert.match(out, /datetime="2026-12-06T19:34:00Z"[^>]*data-clock/);
    assert.match(out, /datetime="2026-12-06T19:30:00Z"/);
  });

  test('given two days, when shown, then both in full', () => {
    const out = withReaderClock(paris, () => whenRange('2026-12-05T19:30:00Z', '2026-12-06T08:00:00Z').text);
    assert.equal(text(out), '5 Dec 2026, 20:30–6 Dec 2026, 09:00');
    assert.doesNotMatch(out, /data-clock/);
  });

  test('given the same minute, then one moment, as when() writes it', () => {
    const same = withReaderClock(paris, () => ({
      range: whenRange('2026-12-06T19:30:05Z', '2026-12-06T19:30:40Z').text,
      one: when('2026-12-06T19:30:40Z').text,
    }));
    assert.equal(same.range, same.one);
  });

  test('given a reader whose zone is not known, then UTC is said once, at the end', () => {
    const out = withReaderClock(
      { zone: 'UTC', known: false, now: NOW },
      () => whenRange('2026-12-06T19:30:00Z', '2026-12-06T19:34:00Z').text,
    );
    assert.equal(text(out), '6 Dec 2026, 19:30–19:34 UTC');
  });
});

describe('the zones a person chooses from', () => {
  const WINTER = new Date('2026-01-15T12:00:00Z');
  const SUMMER = new Date('2026-07-15T12:00:00Z');

  test('given a moment, then a zone’s offset from UTC is said as UTC±hh:mm, summer time included', () => {
    assert.equal(utcOffsetWords('Europe/Paris', WINTER), 'UTC+01:00');
    assert.equal(utcOffsetWords('Europe/Paris', SUMMER), 'UTC+02:00');
    assert.equal(utcOffsetWords('America/St_Johns', WINTER), 'UTC-03:30');
    assert.equal(
      utcOffsetWords('Asia/Kathmandu', WINTER) ?? utcOffsetWords('Asia/Katmandu', WINTER),
      'UTC+05:45',
    );
    assert.equal(utcOffsetWords('UTC', WINTER), 'UTC+00:00');
    assert.equal(utcOffsetWords('Mars/Olympus', WINTER), null);
  });

  test('given the list, then each zone carries its offset, UTC comes first and the rest by name; only listed names may be chosen', () => {
    const list = zoneChoices(WINTER);
    assert.deepEqual(list[0], { zone: 'UTC', label: 'UTC' });
    assert.deepEqual(
      list.find((c) => c.zone === 'Europe/Paris'),
      { zone: 'Europe/Paris', label: 'Europe/Paris (UTC+01:00)' },
    );
    assert.equal(list.find((c) => c.zone === 'America/New_York')?.label, 'America/New York (UTC-05:00)');
    const names = list.slice(1).map((c) => c.zone);
    assert.deepEqual(names, [...names].sort());
    assert.equal(new Set(list.map((c) => c.zone)).size, list.length);
    assert.ok(list.every((c) => isChoosableTimeZone(c.zone)));
    for (const other of ['US/Pacific', 'utc', 'europe/paris', 'Mars/Olympus', '', null, 7])
      assert.equal(isChoosableTimeZone(other), false, String(other));
    assert.equal(isTimeZone('US/Pacific'), true, 'a cookie may still name an alias the browser reports');
  });
});
