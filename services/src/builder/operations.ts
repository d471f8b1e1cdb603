// Every operation of this area, in catalogue order; services/src/catalogue.ts composes the areas' lists.
import type { AnyOperation } from '../pipeline/operation.js';
import { addressOperations } from './address-operations.js';
import { createSite } from './create-site.js';
import { builderDomainOperations } from './domain-operations.js';
import { deleteMedia } from './delete-media.js';
import { listMedia } from './list-media.js';
import { readMedia } from './read-media.js';
import { formOperations } from './form-operations.js';
import { listSites } from './list-sites.js';
import { previewSite } from './preview-site.js';
import { publishSite } from './publish-site.js';
import { readDraft } from './read-draft.js';
import { redoDraft } from './redo-draft.js';
import { readSite } from './read-site.js';
import { listVersions } from './list-versions.js';
import { listHistory } from './list-history.js';
import { restoreVersion } from './restore-version.js';
import { rollbackSite } from './rollback-site.js';
import { saveDraft } from './save-draft.js';
import { moveBlock } from './move-block.js';
import { listSuspendedSites } from './list-suspended-sites.js';
import { suspendSite } from './suspend-site.js';
import { unsuspendSite } from './unsuspend-site.js';
import { undoDraft } from './undo-draft.js';
import { updateSite } from './update-site.js';
import { uploadMedia } from './upload-media.js';

export const builderOperations: readonly AnyOperation[] = [
  listSites,
  createSite,
  readSite,
  listVersions,
  listHistory,
  updateSite,
  readDraft,
  saveDraft,
  moveBlock,
  undoDraft,
  redoDraft,
  ...builderDomainOperations,
  previewSite,
  publishSite,
  rollbackSite,
  restoreVersion,
  uploadMedia,
  listMedia,
  readMedia,
  deleteMedia,
  ...addressOperations,
  suspendSite,
  unsuspendSite,
  listSuspendedSites,
  ...formOperations,
];
