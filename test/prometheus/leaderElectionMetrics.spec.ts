import test from 'ava';
import { Registry } from 'prom-client';
import { from } from 'rxjs';
import type { Leadership } from '../../src/coordination/electionState.js';
import { leaderElectionMetrics } from '../../src/prometheus/leaderElectionMetrics.js';

const value = async (registry: Registry, name: string): Promise<number | undefined> =>
  (await registry.getSingleMetric('leader_election_master_status')!.get()).values.find((v) => v.labels['name'] === name)?.value;

test('leader_election_master_status follows the leadership: 1 leading, 0 following; one gauge per registry', async (t) => {
  const registry = new Registry();
  const seen: Leadership[] = [];
  const values: Leadership[] = [{ state: 'following', holder: 'x' }, { state: 'leading', holder: 'me', transitions: 1 }];
  from(values).pipe(leaderElectionMetrics(registry, { name: 'a' })).subscribe((l) => seen.push(l));
  t.deepEqual(seen, values, 'values pass through');
  t.is(await value(registry, 'a'), 1);
  from([{ state: 'following', holder: 'me' } as Leadership]).pipe(leaderElectionMetrics(registry, { name: 'b' })).subscribe();
  t.is(await value(registry, 'b'), 0);
  t.is(await value(registry, 'a'), 1);
  t.regex(await registry.metrics(), /leader_election_master_status\{name="a"\} 1/);
  t.throws(() => leaderElectionMetrics(registry, { name: '' }), { instanceOf: TypeError });
});
