/**
 * @internal What a member of a server-side ring tells the others, in an annotation of its own
 * member Lease, written with its renewals (so it costs no request of its own): the live members it
 * sees (its view) and the hash ranges it claims — those it works on, or is about to.
 */
import { shardSpaceEnd, type ShardRange } from '../../sources/shardSelector.js';
import type { Lease } from '../../coordination/lease.js';
import { hash32 } from '../hash32.js';

/** The annotation on a member Lease. */
export const claimAnnotation = 'sharding.rx-informer.dev/claim';

/** A member's view and claim. */
export interface ShardClaim {
  /** {@link viewOf} the live members the claim was made under. */
  readonly view: string;
  /** Normalized. */
  readonly ranges: readonly ShardRange[];
}

/** A short digest of a sorted member list: members agree when their views are equal. */
export const viewOf = (members: readonly string[]): string => `${members.length}-${hash32(members.join('\n')).toString(16)}`;

/** `<view>;<start>-<end>,…` in hex. */
export const encodeClaim = (claim: ShardClaim): string => `${claim.view};${claim.ranges.map((r) => `${r.start.toString(16)}-${r.end.toString(16)}`).join(',')}`;

/** The claim of a member Lease; `undefined` when it has none or it does not read. */
export function claimOf(lease: Lease | undefined): ShardClaim | undefined {
  const text = lease?.metadata?.annotations?.[claimAnnotation];
  if (typeof text !== 'string') return undefined;
  const semicolon = text.indexOf(';');
  if (semicolon < 0) return undefined;
  const ranges: ShardRange[] = [];
  for (const part of text.slice(semicolon + 1).split(',')) {
    if (part === '') continue;
    const match = /^([0-9a-f]{1,17})-([0-9a-f]{1,17})$/.exec(part);
    if (match === null) return undefined;
    const start = BigInt(`0x${match[1]}`);
    const end = BigInt(`0x${match[2]}`);
    if (start >= end || end > shardSpaceEnd) return undefined;
    ranges.push({ start, end });
  }
  return { view: text.slice(0, semicolon), ranges };
}
