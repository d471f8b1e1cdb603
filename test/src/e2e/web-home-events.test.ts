// The home page's "Recent events" with more events than one page of the log read: the page reads them
// newest first in one bounded query (svc.log.read_mine with order "newest"), so the newest show however
// long the person's history is. Checked against the log itself, and the REST operation's own paging
// (`before`) is walked to the start without a gap or a repeat.
import { eventually } from '@tributary/test';
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { checkPage, webSuite } from './web-kit.js';

/** More than one page of the largest log read (FEED_MAX_LIMIT is 500). */
const EVENTS = 620;

webSuite('home page recent events', (web) => {
  test(`given a person with over ${EVENTS} events, when they open their home page, then it lists their newest, newest first, a run of one kind as one line`, async () => {
    const w = await web.signedUp('busy', { name: 'Busy' });
    const { page } = w;
    const me = (await page.locator('#me code').first().textContent())!.trim();
    const op = async (name: string, input: unknown) => {
      const res = await page.request.post(`${web.t.url}/api/ops/${name}`, {
        headers: { 'content-type': 'application/json', origin: web.t.url },
        data: input,
      });
      assert.ok(res.ok(), `${name}: ${res.status()} ${await res.text()}`);
      return ((await res.json()) as { result: Record<string, unknown> }).result;
    };
    // Many profile changes, one signed event each (one after the other: they append to one stream).
    for (let i = 0; i < EVENTS; i++) await op('svc.profile.update', { bio: `bio ${i}` });
    // And, last, a persona: its events are the newest.
    await op('svc.agent.create_persona', { name: 'Latest' });

    // The truth, from the log: every event of the person and the persona, oldest first.
    const persona = (await web.t.instance.services.agents.read.personasOf(me))[0]!;
    // An event is read by sequence once the sequencer numbered it, which waits for every transaction
    // begun before it (another session's, e.g. a worker's): wait until the persona's creation is there.
    const all = await eventually('the persona’s creation on the sequenced log', async () => {
      const events = await web.t.instance.services.store.readByActors({
        actorIds: [me, persona.agentId],
        since: 0,
        limit: 1_000_000,
      });
      return events.at(-1)?.envelope.type === 'agent.created' && events;
    });
    assert.ok(all.length > EVENTS, `${all.length} events`);
    const newestFirst = all.map((e) => e.sequence).reverse();

    await page.goto(`${web.t.url}/home`);
    // Each line carries the sequence of its newest event and how many events it stands for (consecutive
    // ones of a kind, by one agent, about one thing, are one line); the tables (one per area) keep the
    // newest-first order. The type (each event's technical name) is shown once asked for.
    await page.locator('#events summary', { hasText: 'Show the technical name of each event' }).click();
    const marks = page.locator('#events [data-sequence]');
    await marks.first().waitFor();
    const lines = (
      await marks.evaluateAll((els) =>
        els.map((e) => [Number(e.getAttribute('data-sequence')), Number(e.getAttribute('data-events'))]),
      )
    ).sort((a, b) => b[0]! - a[0]!);
    // The lines follow one another through the newest events without a gap: each starts where the one
    // before ended, from the very newest, over the whole bounded read (100 events).
    let at = 0;
    for (const [sequence, count] of lines) {
      assert.equal(sequence, newestFirst[at], `line ${at}`);
      at += count!;
    }
    assert.equal(at, 100, 'the lines stand for every event read');
    assert.deepEqual(
      lines.map(([, n]) => n),
      [1, 99],
      'the persona’s creation, then the profile changes as one line',
    );
    // The last line may go on in older events than were read: it says "at least".
    await page.locator('#events').getByText('A name or profile was changed at least 99 times').waitFor();
    const newest = page.locator(`#events [data-sequence="${newestFirst[0]}"]`);
    assert.equal(
      (await newest.textContent())?.trim(),
      all.at(-1)!.envelope.type,
      'the newest event is the persona’s',
    );
    await checkPage(w, 'home-events');

    // The operation pages newest first with `before`, to the very first event.
    const seen: number[] = [];
    let before: number | undefined;
    for (let i = 0; i < 20; i++) {
      const page_ = await op('svc.log.read_mine', { order: 'newest', limit: 100, ...(before && { before }) });
      const events = page_.events as { sequence: number }[];
      seen.push(...events.map((e) => e.sequence));
      if (!page_.hasMore) break;
      before = events.at(-1)!.sequence;
    }
    assert.deepEqual(seen, newestFirst);
    // `before` belongs to the newest-first order only.
    const refused = await page.request.post(`${web.t.url}/api/ops/svc.log.read_mine`, {
      headers: { 'content-type': 'application/json', origin: web.t.url },
      data: { before: 10 },
    });
    assert.equal(refused.status(), 400);
    assert.equal(((await refused.json()) as { code: string }).code, 'input.invalid');
    await w.context.close();
  }, 180_000);
});
