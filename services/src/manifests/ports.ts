// The manifests area's reads.
/** The manifests area's reads (rm_manifest_publications). */
export interface ManifestReadModels {
  /** The agent owner's choice about its universal manifest; null when they never chose (unpublished). */
  agentPublication(agentId: string): Promise<{ published: boolean; updatedAt: string } | null>;
}

/** The manifests area's ports. */
export interface ManifestsPorts {
  read: ManifestReadModels;
}

/** What the manifests area adds to the core services. */
export interface ManifestsServices {
  manifests: ManifestsPorts;
}
