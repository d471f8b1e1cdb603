// How many log events one page holds, wherever the log is read by pages (the feed, export, one's own events).
export const FEED_DEFAULT_LIMIT = 100;
export const FEED_MAX_LIMIT = 500;
