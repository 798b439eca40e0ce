/**
 * leaseClient over HTTP against the in-process API server (real time; no sleeps: conditions are
 * polled): get / create / update with the API server's 409s, and two electors handing over.
 */
import test from 'ava';
import { firstValueFrom } from 'rxjs';
import { createTestApiServer } from '../../src/testServer/createTestApiServer.js';
import { leaderElection } from '../../src/coordination/leaderElection.js';
import { leaseClient } from '../../src/coordination/leaseClient.js';
import { newLease, heldLease } from '../../src/coordination/lease.js';
import type { Leadership } from '../../src/coordination/electionState.js';
import { until } from '../helpers/until.js';

const ref = { namespace: 'default', name: 'lock' };

test.serial('get, create and update, a stale write or a second create refused as a conflict (the API server 409)', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  const client = leaseClient(server.kubeConfig);
  t.is(await firstValueFrom(client.get(ref)), undefined, '404 is undefined');
  const created = (await firstValueFrom(client.create(newLease(ref, { a: 'b' }, { identity: 'me', leaseDurationSeconds: 15, now: Date.UTC(2026, 0, 1) }))))!;
  t.like(created, { kind: 'Lease', metadata: { name: 'lock', labels: { a: 'b' } }, spec: { holderIdentity: 'me', renewTime: '2026-01-01T00:00:00.000000Z' } });
  t.truthy(created.metadata?.resourceVersion);
  const renewed = (await firstValueFrom(client.update(heldLease(created, { identity: 'me', leaseDurationSeconds: 15, now: Date.UTC(2026, 0, 1, 0, 0, 2) }))))!;
  t.like(await firstValueFrom(client.get(ref)), { spec: { renewTime: '2026-01-01T00:00:02.000000Z' }, metadata: { resourceVersion: renewed.metadata!.resourceVersion } });
  const stale = await t.throwsAsync(firstValueFrom(client.update(heldLease(created, { identity: 'other', leaseDurationSeconds: 15, now: 0 }))), { name: 'ControllerError', message: /^Lease lock in default changed under this update \(resourceVersion \d+ → newer\): another writer got there first/ });
  t.like(stale, { reason: 'conflict', cause: { code: 409 } });
  const { metadata, ...rest } = created;
  const again = await t.throwsAsync(firstValueFrom(client.create({ ...rest, metadata: { name: metadata!.name!, namespace: metadata!.namespace! } })));
  t.like(again, { reason: 'conflict', cause: { code: 409 } });
  t.throws(() => leaseClient({} as never), { instanceOf: TypeError });
});

test.serial('two electors over HTTP: one leads; when it unsubscribes with releaseOnCancel the other takes over at its next try', async (t) => {
  const server = await createTestApiServer();
  t.teardown(() => server.close());
  // A long lease and short retries: taking over well before the lease could expire shows the release.
  const timing = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 200 };
  const seen: Record<string, Leadership[]> = { a: [], b: [] };
  const a = leaderElection({ leases: leaseClient(server.kubeConfig), lease: ref, identity: 'a', releaseOnCancel: true, ...timing }).subscribe((l) => seen.a!.push(l));
  await until(() => seen.a!.some((l) => l.state === 'leading'), 'a to lead');
  const b = leaderElection({ leases: leaseClient(server.kubeConfig), lease: ref, identity: 'b', ...timing }).subscribe((l) => seen.b!.push(l));
  t.teardown(() => b.unsubscribe());
  await until(() => seen.b!.length > 0, 'b to observe');
  t.deepEqual(seen.b![0], { state: 'following', holder: 'a' });
  const stoppedAt = Date.now();
  a.unsubscribe();
  await until(() => seen.b!.some((l) => l.state === 'leading'), 'b to lead');
  t.true(Date.now() - stoppedAt < 10_000, `b leads ${Date.now() - stoppedAt} ms after a stopped, long before a's lease would expire: it was released`);
  const lease = await firstValueFrom(leaseClient(server.kubeConfig).get(ref));
  t.like(lease, { spec: { holderIdentity: 'b', leaseTransitions: 1 } });
});
