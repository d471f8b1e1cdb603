// The instance area's ports: what it needs beyond the core (which already reads the instance).

/** What the instance area adds to the core services. */
export interface InstanceServices {
  /**
   * Writes a new signing key's file to the key folder and names it (docs/operations.md#rotating-the-signing-key);
   * absent where the process holds no key folder (svc.instance.rotate_key then answers unavailable).
   */
  instanceKeys?: { create(): { keyId: string; publicKey: string } } | undefined;
}
