-- A site's social card image and favicon (docs/builder.md#sites): media items of the owner's, chosen in
-- the site settings; null when none. Filled by site.settings_updated from now on.
ALTER TABLE rm_builder_sites ADD COLUMN social_image_id text;
ALTER TABLE rm_builder_sites ADD COLUMN favicon_id text;
