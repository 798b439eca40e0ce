import { BehaviorSubject, tap } from 'rxjs';
import type { LeaseClient } from '../../coordination/leaseClient.js';
import type { Lease } from '../../coordination/lease.js';
import { claimAnnotation, claimOf, encodeClaim, type ShardClaim } from './shardClaim.js';

/** @internal The claim a member writes with its renewals, and the one last written. */
export interface ClaimCell {
  /** Written with the next create or renewal of the member Lease. */
  current: ShardClaim;
  /** The claim as each write that went through carried it (`undefined` before the first, or for none). */
  readonly written$: BehaviorSubject<ShardClaim | undefined>;
  /** Asks the member's election to renew now, so that `current` is written without waiting for the next renewal. */
  readonly renew: () => void;
}

/**
 * @internal The member's {@link LeaseClient} with its claim put into every create and renewal: the
 * claim travels with writes the election makes anyway, so no request is added for it.
 */
export function claimingLeases(inner: LeaseClient, cell: ClaimCell): LeaseClient {
  const withClaim = (lease: Lease): Lease => ({
    ...lease,
    metadata: { ...lease.metadata, annotations: { ...lease.metadata?.annotations, [claimAnnotation]: encodeClaim(cell.current) } },
  });
  const heard = tap<Lease>((written) => cell.written$.next(claimOf(written)));
  return {
    get: (ref) => inner.get(ref),
    create: (lease) => inner.create(withClaim(lease)).pipe(heard),
    update: (lease) => inner.update(withClaim(lease)).pipe(heard),
  };
}
