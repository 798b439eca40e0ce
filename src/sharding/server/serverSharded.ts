import { BehaviorSubject, Subject, tap, type Observable } from 'rxjs';
import type { Leadership } from '../../coordination/electionState.js';
import { whileLeading } from '../../coordination/whileLeading.js';
import { memberTerms } from '../memberTerms.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import { claimingLeases, type ClaimCell } from './claimingLeases.js';
import type { HandshakeState } from './handshakeState.js';
import type { ServerShard } from './serverShard.js';
import { serverShardTerm, type ServerRing } from './serverShardTerm.js';
import type { ShardClaim } from './shardClaim.js';

/**
 * @internal `sharded({ mode: 'server' })`: membership terms, each running the ranges' handshake
 * over the ring `ringOf` reads ({@link httpServerRing} on the API server); the claim rides on the
 * member Lease's writes, one out of turn when it changed. `onState` hears the handshake's states
 * (for tests).
 */
export function serverSharded<T>(c: ResolvedShardingConfig, work: (shard: ServerShard) => Observable<T>, ringOf: () => ServerRing, onState?: (identity: string, state: HandshakeState) => void): Observable<T> {
  return memberTerms(c, (identity) => {
    const renewals = new Subject<void>();
    const claims: ClaimCell = { current: { view: '', ranges: [] }, written$: new BehaviorSubject<ShardClaim | undefined>(undefined), renew: () => renewals.next() };
    const run = (term$: Observable<Leadership>, completed: () => void): Observable<T> =>
      serverShardTerm(c, identity, claims, ringOf(), work, onState && ((state) => onState(identity, state))).pipe(tap({ complete: completed }), whileLeading(term$));
    return { leases: claimingLeases(c.leases, claims), renewWhen: renewals, run };
  });
}
