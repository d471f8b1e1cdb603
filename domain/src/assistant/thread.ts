// The thread aggregate (stream `athread-<threadId>`): a person's conversation with the assistant. A thread
// belongs to the person's own agent; anyone else asking is told it does not exist.
import type { NewEvent } from '../shared/envelope.js';
import { invalid, notFound, DomainError } from '../shared/errors.js';
import type { StoredEventLike } from '../shared/stored-event-like.js';
import type { AssistantEventData as EventData } from './events.js';
import { ASSISTANT_LIMITS } from './limits.js';
import { threadStream } from './streams.js';

export interface ThreadState {
  exists: boolean;
  deleted: boolean;
  threadId?: string;
  ownerAgentId?: string;
  title?: string;
  messageCount: number;
  /** messageId -> the plan it proposes ('' when none). */
  messages: ReadonlyMap<string, string>;
}
export const initialThreadState = (): ThreadState => ({
  exists: false,
  deleted: false,
  messageCount: 0,
  messages: new Map(),
});

export function evolveThread(state: ThreadState, event: StoredEventLike): ThreadState {
  switch (event.type) {
    case 'assistant.thread_started': {
      const d = event.data as EventData<'assistant.thread_started'>;
      return { ...state, exists: true, threadId: d.threadId, ownerAgentId: d.ownerAgentId, title: d.title };
    }
    case 'assistant.message_added': {
      const d = event.data as EventData<'assistant.message_added'>;
      const messages = new Map(state.messages);
      messages.set(d.messageId, d.planId ?? '');
      return { ...state, messageCount: state.messageCount + 1, messages };
    }
    case 'assistant.thread_deleted':
      return { ...state, deleted: true };
    default:
      return state;
  }
}

type LiveThread = ThreadState & { threadId: string; ownerAgentId: string };

/** A live thread of this owner; a deleted one, an unknown one and someone else's look alike. */
export function liveThreadOf(state: ThreadState, ownerAgentId: string): LiveThread {
  if (!state.exists || state.deleted || state.ownerAgentId !== ownerAgentId || !state.threadId)
    throw notFound('assistant.thread_not_found', 'no such thread');
  return state as LiveThread;
}

/** A thread's title: the first line of its first message, shortened. */
export function threadTitleFrom(text: string): string {
  const line = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
  const max = ASSISTANT_LIMITS.titleMaxChars;
  if (line.length === 0) return 'New thread';
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/** Refuses a person's message over the limit, or empty. */
export function checkPersonMessage(text: string, attachmentIds: readonly string[]): void {
  if (text.length > ASSISTANT_LIMITS.messageMaxChars)
    throw new DomainError('assistant.message_too_long', 'too_large', 'the message is too long', {
      limit: ASSISTANT_LIMITS.messageMaxChars,
    });
  if (text.trim().length === 0 && attachmentIds.length === 0)
    throw invalid('input.invalid', 'the message is empty');
  if (attachmentIds.length > ASSISTANT_LIMITS.attachmentsPerMessage)
    throw invalid(
      'input.invalid',
      `a message may reference at most ${ASSISTANT_LIMITS.attachmentsPerMessage} attachments`,
    );
}

interface StartThread {
  threadId: string;
  ownerAgentId: string;
  firstMessage: string;
}

/** Starts a thread (its stream must be new). */
export function decideStartThread(state: ThreadState, cmd: StartThread): NewEvent[] {
  if (state.exists) throw new DomainError('log.stream_conflict', 'conflict', 'the thread already exists');
  return [
    {
      stream: threadStream(cmd.threadId),
      type: 'assistant.thread_started',
      data: {
        threadId: cmd.threadId,
        ownerAgentId: cmd.ownerAgentId,
        title: threadTitleFrom(cmd.firstMessage),
      },
    },
  ];
}

/** Deletes a thread of this owner (its messages leave the read models; the log keeps the events). */
export function decideDeleteThread(state: ThreadState, ownerAgentId: string): NewEvent[] {
  const live = liveThreadOf(state, ownerAgentId);
  return [
    {
      stream: threadStream(live.threadId),
      type: 'assistant.thread_deleted',
      data: { threadId: live.threadId },
    },
  ];
}
