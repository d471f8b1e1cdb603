-- Fixed-window request counts shared by every process of an instance (docs/federation.md#user-search):
-- one row per limited key (e.g. `users-search:<peer id>`), reset when its window has passed.
CREATE TABLE rate_window_counts (
  key           text PRIMARY KEY,
  window_start  timestamptz NOT NULL,
  count         integer NOT NULL
);
