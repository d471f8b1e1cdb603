// This area's operations, in the order tools/list and the OpenAPI document show them.
import type { AnyOperation } from '../pipeline/operation.js';
import { readEntityManifest } from './entity-manifest.js';
import { setManifestPublication } from './set-publication.js';

export const manifestsOperations: readonly AnyOperation[] = [setManifestPublication, readEntityManifest];
