-- Each event once per hop (docs/federation.md#push-and-pull-share-a-cursor): a push received whose batch
-- starts at or before where our pull cursor for that peer stands moves the pull cursor too, and marks when
-- it did. While pushes keep arriving in order, the pull has nothing to fetch and waits a pull interval
-- after the last one instead of fetching what push is already delivering.
ALTER TABLE federation_sync_cursors ADD COLUMN pushed_at timestamptz;
