import { defer, Observable, tap } from 'rxjs';
import { leaderElection } from '../../coordination/leaderElection.js';
import { whileLeading } from '../../coordination/whileLeading.js';
import { electionTimings, memberTerms } from '../memberTerms.js';
import type { ResolvedShardingConfig } from '../shardingConfig.js';
import { createShard, type Shard } from './shard.js';
import { runSharder } from './labelSharder.js';

/**
 * @internal `sharded({ mode: 'label' })`: membership terms, `work` running for each, and the
 * sharder on whichever replica holds `<ring>-sharder`.
 */
export function labelSharded<T>(c: ResolvedShardingConfig, work: (shard: Shard) => Observable<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const sharder = sharderWhileLeading(c).subscribe({ error: (error: unknown) => subscriber.error(error) });
    const terms = memberTerms(c, (identity) => ({ leases: c.leases, run: (term$, completed) => defer(() => work(createShard(c, identity))).pipe(tap({ complete: completed }), whileLeading(term$)) })).subscribe(subscriber);
    return () => {
      terms.unsubscribe();
      sharder.unsubscribe();
    };
  });
}

/** The sharder, on whichever replica holds `<ring>-sharder`. */
function sharderWhileLeading(c: ResolvedShardingConfig): Observable<never> {
  return defer(() => {
    const election = leaderElection({ ...electionTimings(c), lease: { namespace: c.namespace, name: `${c.ring}-sharder` }, releaseOnCancel: true });
    return runSharder(c).pipe(
      whileLeading(election.pipe(tap((leadership) => c.onEvent({ type: 'sharder', leadership })))),
      tap((event) => c.onEvent(event)),
    ) as Observable<never>;
  });
}
