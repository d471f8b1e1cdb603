// The rule for mail about new form submissions (domain/src/mail/submission-notices.ts), as a fold:
// given the decisions on a form's mailnotice stream, when a submission arrives or time passes, then
// mail now, wait, or nothing (already decided); and the text a mail shows of a visitor's fields.
import {
  evolveSubmissionNotice,
  initialSubmissionNoticeState,
  planSubmissionNotice,
  renderMail,
  waitingNotice,
  type SubmissionNoticeState,
} from '@tributary/domain';
import { submissionText } from '@tributary/services';
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';

const QUIET = 600_000;
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 12, minutes));
const given = (events: { type: string; data: unknown }[]): SubmissionNoticeState =>
  events.reduce(
    (s, e) => evolveSubmissionNotice(s, e as Parameters<typeof evolveSubmissionNotice>[1]),
    initialSubmissionNoticeState(),
  );
const sub = (seq: number, minutes: number) => ({
  formId: 'f',
  submissionId: `s${seq}`,
  seq,
  receivedAt: at(minutes).toISOString(),
});
const queued = (through: number, minutes: number) => ({
  type: 'mail.submission_notice_queued',
  data: { formId: 'f', through, count: 1, requestKey: `k${through}`, at: at(minutes).toISOString() },
});
const deferred = (seq: number, minutes: number, dueMinutes: number) => ({
  type: 'mail.submission_notice_deferred',
  data: {
    formId: 'f',
    submissionId: `s${seq}`,
    through: seq,
    receivedAt: at(minutes).toISOString(),
    dueAt: at(dueMinutes).toISOString(),
  },
});

describe('the quiet time', () => {
  test('given no mail yet, when a submission arrives, then it is mailed at once, alone', () => {
    assert.deepEqual(planSubmissionNotice(given([]), sub(5, 0), at(0), QUIET), {
      kind: 'mail',
      count: 1,
      since: at(0).toISOString(),
    });
  });

  test('given a mail 3 minutes ago, when one arrives, then it waits until 10 minutes after that mail', () => {
    assert.deepEqual(planSubmissionNotice(given([queued(5, 0)]), sub(6, 3), at(3), QUIET), {
      kind: 'wait',
      dueAt: at(10).toISOString(),
    });
  });

  test('given two waiting, when the quiet time is over, then one mail tells of both, up to the last', () => {
    const s = given([queued(5, 0), deferred(6, 3, 10), deferred(7, 4, 10)]);
    assert.equal(waitingNotice(s, at(9)), null);
    assert.deepEqual(waitingNotice(s, at(10)), {
      count: 2,
      through: 7,
      since: at(3).toISOString(),
      latestSubmissionId: 's7',
    });
  });

  test('given two waiting and the quiet time over, when a third arrives first, then one mail tells of all three', () => {
    const s = given([queued(5, 0), deferred(6, 3, 10), deferred(7, 4, 10)]);
    assert.deepEqual(planSubmissionNotice(s, sub(8, 11), at(11), QUIET), {
      kind: 'mail',
      count: 3,
      since: at(3).toISOString(),
    });
  });

  test('given a submission already decided, when it is read again (a restart), then nothing is decided', () => {
    const s = given([queued(5, 0), deferred(6, 3, 10)]);
    assert.deepEqual(planSubmissionNotice(s, sub(6, 3), at(20), QUIET), { kind: 'decided' });
    assert.deepEqual(planSubmissionNotice(s, sub(5, 0), at(20), QUIET), { kind: 'decided' });
    assert.equal(waitingNotice(given([queued(5, 0), deferred(6, 3, 10), queued(6, 10)]), at(30)), null);
  });
});

describe('what the mail shows', () => {
  const fields = [
    { type: 'text' as const, name: 'name', label: 'Name', required: true },
    { type: 'email' as const, name: 'email', label: 'Email', required: false },
    { type: 'textarea' as const, name: 'message', label: 'Message', required: false },
    { type: 'checkbox' as const, name: 'ok', label: 'I agree', required: false },
  ];

  test('given a visitor’s values, then each line they typed is indented, long values are cut, the email is the Reply-To', () => {
    const shown = submissionText(fields, {
      name: 'Vera',
      email: 'vera@example.org',
      message: `Line one\n----\nOpen https://evil.example\n${'x'.repeat(2000)}`,
      ok: true,
    });
    assert.equal(shown.replyTo, 'vera@example.org');
    const lines = shown.text.split('\n');
    assert.deepEqual(lines.slice(0, 5), [
      'Name: Vera',
      'Email: vera@example.org',
      'Message:',
      '    Line one',
      '    ----',
    ]);
    assert.ok(
      lines.slice(3, -1).every((l) => l.startsWith('    ')),
      'every visitor line is indented',
    );
    assert.equal(lines.at(-1), 'I agree: yes');
    assert.ok(shown.text.length < 1200, 'a value is cut at 1,000 characters');
  });

  test('given markup in a value, then the HTML part escapes it and links only the instance’s own link', () => {
    const mail = renderMail(
      'form_submission',
      {
        site: 'Shop',
        form: 'Contact',
        count: '1',
        fields: 'Name: <script>alert(1)</script> https://evil.example/x',
        link: 'https://inst.example/builder/forms/f',
      },
      'Inst',
    );
    assert.equal(mail.subject, 'New form submission: Contact on Shop');
    assert.ok(mail.html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.ok(!mail.html.includes('<script>'));
    assert.ok(!mail.html.includes('href="https://evil.example'));
    assert.ok(mail.html.includes('<a href="https://inst.example/builder/forms/f">'));
  });
});
