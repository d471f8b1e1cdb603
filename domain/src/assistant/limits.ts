// The assistant's fixed limits: what a plan and a message may hold. Run-time limits (history sent to the
// model, tool-loop iterations, time allowances) are configuration (docs/configuration.md).
export const ASSISTANT_LIMITS = {
  /** Characters in one message a person sends. */
  messageMaxChars: 8_000,
  /** Characters of the assistant's own reply kept on the log. */
  replyMaxChars: 32_000,
  /** Steps in one plan. */
  planMaxSteps: 20,
  /** Attachments one message may reference. */
  attachmentsPerMessage: 4,
  /** A thread's title, made from its first message. */
  titleMaxChars: 120,
  /** Proposed-but-declined tool calls kept on one message. */
  declinedMax: 20,
  /**
   * Characters of outside content a turn read that its reply keeps, so that later turns of the thread
   * still mark values from it (docs/assistant.md#untrusted-content).
   */
  outsideKeptChars: 64_000,
} as const;
