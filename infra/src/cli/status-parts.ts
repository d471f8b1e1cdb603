// Every area's part of `tributary status`, one line each, in the order they are read (and their
// warnings given) and, within their place, printed.
import type { StatusPart } from './status-part.js';
import { peersStatus } from '../federation/peers-status.js';
import { mailStatus } from '../mail/mail-status.js';

export const statusParts = [mailStatus, peersStatus] as const;

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type MemberOf<P> = P extends StatusPart<infer K, infer V> ? { [M in K]: V } : never;

/** The report's members the parts add, together. */
export type StatusPartsReport = Intersection<MemberOf<(typeof statusParts)[number]>>;
