// What the builder's media part reads from rm_builder_media (and, to tell whether an item is in use,
// from the core's rm_builder_sites and rm_builder_versions). Part of BuilderReadModels.
import type { MediaContentType } from '@tributary/domain';

export interface MediaView {
  mediaId: string;
  ownerAgentId: string;
  /** SHA-256 of the stored bytes: the blob's name, and the `/_media/<sha256>.<ext>` a site serves it at. */
  sha256: string;
  contentType: MediaContentType;
  /** One frame's size, in pixels. */
  width: number;
  height: number;
  /** Bytes stored. */
  length: number;
  filename: string;
  alt: string | null;
  uploadedAt: string;
}

export interface MediaReadModels {
  /** One live item (a deleted one reads as none), whoever owns it: callers check the owner. */
  mediaItem(mediaId: string): Promise<MediaView | null>;
  /**
   * A page of an owner's live items, newest first; `before` is the `mediaId` the previous page ended
   * with (one that is not the owner's live item gives an empty page).
   */
  mediaOf(ownerAgentId: string, page: { limit: number; before?: string | undefined }): Promise<MediaView[]>;
  /** Which of `mediaIds` the owner holds (live items), sorted: the draft's reference check. */
  mediaHeld(ownerAgentId: string, mediaIds: readonly string[]): Promise<string[]>;
  /** The owner's live items among `mediaIds`, in no particular order: what the renderer resolves them to. */
  renderMedia(ownerAgentId: string, mediaIds: readonly string[]): Promise<MediaView[]>;
  /**
   * The owner's sites whose published version (the publication pointer) serves these bytes: a file
   * of its manifest has this SHA-256. Sorted.
   */
  sitesPublishingBytes(ownerAgentId: string, sha256: string): Promise<string[]>;
}
