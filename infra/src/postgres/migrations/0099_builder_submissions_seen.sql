-- What the owner has seen of a form's submissions (docs/builder.md#unread): the receivedAt of the newest
-- submission shown when they last looked, from form.submissions_seen; null until they first look. The
-- submissions received after it are unread.
ALTER TABLE rm_builder_forms ADD COLUMN seen_through timestamptz;
