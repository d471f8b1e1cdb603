-- Mail about new form submissions (docs/builder.md#submission-mail).
-- The notifier's cursor on the sequenced log, a row of the mail consumer's table, starting at the log's
-- end: an instance that upgrades does not mail about every submission it ever had.
INSERT INTO mail_consumer_cursor (name, seq, updated_at)
SELECT 'form-submissions', COALESCE(max(seq), 0), now() FROM event_sequence
ON CONFLICT (name) DO NOTHING;

-- Forms with submissions waiting for the end of their quiet time, folded inline from the
-- mail.submission_notice_* events of each form's mailnotice-<formId> stream.
CREATE TABLE rm_mail_submission_notices (
  form_id  text PRIMARY KEY,
  pending  integer NOT NULL,
  due_at   timestamptz
);
CREATE INDEX rm_mail_submission_notices_due ON rm_mail_submission_notices (due_at) WHERE pending > 0;
