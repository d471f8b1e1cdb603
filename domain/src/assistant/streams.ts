// The assistant's stream names (docs/assistant.md#streams). Threads and plans are the person's; settings,
// attachments and the connected account are per agent or per item.
export const threadStream = (threadId: string) => `athread-${threadId}`;
export const planStream = (planId: string) => `aplan-${planId}`;
export const assistantSettingsStream = (agentId: string) => `asettings-${agentId}`;
export const attachmentStream = (attachmentId: string) => `aattach-${attachmentId}`;
export const connectedAccountStream = (agentId: string) => `aaccount-${agentId}`;
