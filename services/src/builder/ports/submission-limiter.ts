/**
 * Per-client, per-form submission counts within a minute and a day (BUILDER_FORM_SUBMISSIONS_PER_*):
 * a throttle, not a fact, so not in the log. `key` is already a digest: no address is held in clear.
 */
export interface SubmissionLimiter {
  /** Counts one submission for `key` at `at`: 0 when allowed, else the whole seconds to wait (nothing counted). */
  take(key: string, at: Date): number;
}
