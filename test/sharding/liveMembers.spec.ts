/** Ring membership on virtual time: join, leave (release, deletion), expiry, clock skew, flapping. */
import test from 'ava';
import { runMarbles } from '../../src/testing/marbles.js';
import type { Lease } from '../../src/coordination/lease.js';
import { liveMembers } from '../../src/sharding/liveMembers.js';

const member = (name: string, renew: string, holder = name, labels?: Record<string, string>): Lease => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { namespace: 'ns', name, ...(labels ? { labels } : {}) },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15, renewTime: renew },
});

test('join: a new member Lease adds its holder; unchanged snapshots emit nothing', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const a1 = member('a', 't1');
    const values = { x: [a1], y: [a1, member('b', 't1')], z: [a1, member('b', 't1')] };
    expectObservable(cold('x-y-z-', values).pipe(liveMembers()), '^ 10s !').toBe('x-y---', { x: ['a'], y: ['a', 'b'] });
  }));

test('leave: a released Lease (no holder) or a deleted one drops its member at once', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const a = member('a', 't1');
    const values = { x: [a, member('b', 't1'), member('c', 't1')], y: [a, member('b', 't2', ''), member('c', 't1')], z: [a] };
    expectObservable(cold('x-y-z', values).pipe(liveMembers()), '^ 10s !').toBe('x-y-z', { x: ['a', 'b', 'c'], y: ['a', 'c'], z: ['a'] });
  }));

test('expiry: a member whose record stops changing drops out leaseDuration after its last change was seen', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const b = member('b', 'b1');
    // a renews every 5 s, b once at 0 only.
    const values = { p: [member('a', 'a1'), b], q: [member('a', 'a2'), b], r: [member('a', 'a3'), b], s: [member('a', 'a4'), b] };
    const leases = cold('p 4999ms q 4999ms r 4999ms s', values);
    expectObservable(leases.pipe(liveMembers()), '^ 30s !').toBe('x 14999ms y 14999ms z', { x: ['a', 'b'], y: ['a'], z: [] });
  }));

test("clock skew: the record's times are never read — a renewTime years ahead or behind expires 15 s after it was seen to change", (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const values = { p: [member('a', '2099-01-01T00:00:00.000000Z'), member('b', '1999-01-01T00:00:00.000000Z')] };
    expectObservable(cold('p', values).pipe(liveMembers()), '^ 20s !').toBe('x 14999ms y', { x: ['a', 'b'], y: [] });
  }));

test('a change of metadata only (labels) is not a sign of life', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const values = { p: [member('a', 'a1')], q: [member('a', 'a1', 'a', { touched: 'yes' })] };
    expectObservable(cold('p 9999ms q', values).pipe(liveMembers()), '^ 20s !').toBe('x 14999ms y', { x: ['a'], y: [] });
  }));

test('flapping: a member that expires and renews again leaves and rejoins, each time on its own record', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const a: Lease = { ...member('a', 'a'), spec: { holderIdentity: 'a', leaseDurationSeconds: 60, renewTime: 'a' } };
    const values = { p: [a, member('b', 'b1')], q: [a, member('b', 'b2')], r: [a, member('b', 'b3')] };
    // b renews at 0, then not until 20 s (it was expired from 15 s), then at 21 s, then never.
    expectObservable(cold('p 19999ms q 999ms r', values).pipe(liveMembers()), '^ 40s !').toBe('x 14999ms y 4999ms x 15999ms y', { x: ['a', 'b'], y: ['a'] });
  }));

test('holders are listed once even if two Leases name the same one; the source completing or erroring ends the output', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    expectObservable(cold('p|', { p: [member('a', '1'), member('a2', '1', 'a')] }).pipe(liveMembers())).toBe('x|', { x: ['a'] });
    expectObservable(cold<Lease[]>('#').pipe(liveMembers())).toBe('#');
  }));

test('with confirm: an expired record stays live until a fresh read shows it unchanged', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const leases = { a: member('a', 'a1'), b: member('b', 'b1') };
    const confirm = (ref: { name: string }) => cold('100ms (l|)', { l: leases[ref.name as 'a' | 'b'] });
    expectObservable(cold('p', { p: [leases.a, leases.b] }).pipe(liveMembers({ confirm })), '^ 20s !').toBe('x 15099ms (yz)', { x: ['a', 'b'], y: ['b'], z: [] });
  }));

test('with confirm: a stalled view (no snapshots) cannot kill a member that renews — the fresh read shows the change', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    let renewal = 0;
    const confirm = () => cold('10ms (l|)', { l: member('b', `b${++renewal}`) });
    expectObservable(cold('p', { p: [member('b', 'b0')] }).pipe(liveMembers({ confirm })), '^ 60s !').toBe('x', { x: ['b'] });
  }));

test('with confirm: a deleted Lease drops its member; a failed read keeps it and reads again after retryMs', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    let reads = 0;
    const confirm = () => (++reads === 1 ? cold<Lease | undefined>('5ms #') : cold<Lease | undefined>('5ms (l|)', { l: undefined }));
    expectObservable(cold('p', { p: [member('b', 'b0')] }).pipe(liveMembers({ confirm, retryMs: 1_000 })), '^ 20s !').toBe('x 16009ms y', { x: ['b'], y: [] });
  }));
