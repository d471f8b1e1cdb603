// The feed page's JSON text written the plain way, as the reference the streamed route is held to.
import type { FeedPage } from '@tributary/services';

/** `{ events: [{ sequence, event }], head, hasMore }` with each event's stored text as it is. */
export const feedPageJson = (page: FeedPage): string =>
  `{"events":[${page.items.map((i) => `{"sequence":${i.sequence},"event":${i.text}}`).join(',')}],"head":${page.head},"hasMore":${page.hasMore}}`;
