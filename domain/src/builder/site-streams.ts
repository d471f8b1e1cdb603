// The builder's stream names. A site's default-site id is derived from its owner in services
// (a name-based UUID), so creating the default twice races on one stream and never makes two.
export const siteStream = (siteId: string) => `site-${siteId}`;
export const siteDraftStream = (siteId: string) => `draft-${siteId}`;
