import { catchError, map, of, type Observable } from 'rxjs';
import type { Lease } from '../coordination/lease.js';
import type { ListerWatcher } from '../sources/listerWatcher.js';
import type { ShardRange } from '../sources/shardSelector.js';
import { wholeListResponse } from '../sources/wholeListResponse.js';
import type { ClaimCell } from './claimingLeases.js';
import { sameRanges } from './rangeSet.js';
import type { ShardClaim } from './shardClaim.js';

/** @internal What a member of a server-side ring writes on its Lease, and the fresh check of a wider claim. */
export interface ClaimWrites {
  /** Claims `claim` with the next write (a shrink, a new view, a fall-back); drops a pending wider claim. */
  readonly claim: (claim: ShardClaim) => void;
  /** Claims the wider `claim` with the next write; it stays pending until {@link ClaimWrites.check}ed. */
  readonly propose: (claim: ShardClaim) => void;
  /** The wider claim written or about to be, not yet checked. */
  readonly pending: () => ShardClaim | undefined;
  /** Whether the last write that went through carried `claim`. */
  readonly written: (claim: ShardClaim) => boolean;
  /**
   * Reads the ring's Leases afresh and tells whether the pending claim is clear: `clashes` finds no
   * live peer claiming any of it. Either way the claim is no longer pending; when it is not clear
   * (or the read fails: `onError` hears it), the claim falls back to `working`.
   */
  readonly check: (working: readonly ShardRange[], clashes: (leases: readonly Lease[]) => boolean) => Observable<boolean>;
  /** Asks for a write now when the claim is not yet written (each step of the handshake waits on one). */
  readonly flush: () => void;
}

/** @internal Whether `a` is `b` (views and ranges equal). */
export const sameClaim = (a: ShardClaim | undefined, b: ShardClaim): boolean => a !== undefined && a.view === b.view && sameRanges(a.ranges, b.ranges);

/**
 * @internal The claim side of a member's handshake over `cell` (which its member Lease's writes
 * carry). `ring` lists the ring's member Leases for the fresh check.
 */
export function claimWrites(cell: ClaimCell, ring: ListerWatcher<Lease>, onError: ((error: unknown) => void) | undefined): ClaimWrites {
  let pending: ShardClaim | undefined;
  const claim = (next: ShardClaim): void => {
    pending = undefined;
    cell.current = next;
  };
  return {
    claim,
    propose: (next) => {
      cell.current = pending = next;
    },
    pending: () => pending,
    written: (next) => sameClaim(cell.written, next),
    flush: () => sameClaim(cell.written, cell.current) || cell.renew(),
    check: (working, clashes) => {
      const proposed = pending!;
      const fallBack = (): boolean => (claim({ view: proposed.view, ranges: working }), false);
      return ring.list({}).pipe(
        wholeListResponse(),
        map((list) => {
          if (clashes(list.items)) return fallBack();
          pending = undefined;
          return true;
        }),
        catchError((error: unknown) => {
          onError?.(error);
          return of(fallBack());
        }),
      );
    },
  };
}
