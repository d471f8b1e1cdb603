// The streams of the mail area and the fold each one uses.
import { streamAggregate, type StreamAggregate } from '../shared/aggregate.js';
import {
  evolveMailRequest,
  evolveMailToken,
  initialMailRequestState,
  initialMailTokenState,
} from './mail.js';
import { submissionNoticeAggregates } from './submission-notices.js';

export const mailAggregates: readonly StreamAggregate[] = [
  streamAggregate('mailreq-', { initial: initialMailRequestState, evolve: evolveMailRequest }),
  streamAggregate('mailtoken-', { initial: initialMailTokenState, evolve: evolveMailToken }),
  ...submissionNoticeAggregates,
];
