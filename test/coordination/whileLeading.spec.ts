import test from 'ava';
import { Observable } from 'rxjs';
import { runMarbles } from '../../src/testing/marbles.js';
import type { Leadership } from '../../src/coordination/electionState.js';
import { whileLeading } from '../../src/coordination/whileLeading.js';

const L: Leadership = { state: 'leading', holder: 'me', transitions: 1 };
const F: Leadership = { state: 'following', holder: 'other' };
const G: Leadership = { state: 'following', holder: undefined };
const values = { L, F, G, M: { ...L, transitions: 2 } };

test('subscribes on leading, unsubscribes on following, again on the next leading', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const leadership = hot(' --L-------F-----L-------|', values);
    const source = cold('      --a--b--c--d|');
    const subs = [' --^-------!               ', ' ----------------^-------! '];
    expectObservable(source.pipe(whileLeading(leadership))).toBe('----a--b----------a--b--|');
    expectSubscriptions(source.subscriptions).toBe(subs);
  }));

test('repeated leading values (a new term number) and following values while following change nothing', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const leadership = hot(' -F-G-L--M---F-G--', values);
    const source = cold('         -a-b-c-d-e-');
    expectObservable(source.pipe(whileLeading(leadership))).toBe('------a-b-c------');
    expectSubscriptions(source.subscriptions).toBe('-----^------!----');
  }));

test('never leading: the source is never subscribed', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const source = cold('-a-');
    expectObservable(source.pipe(whileLeading(hot('-F--G--', values)))).toBe('-------');
    expectSubscriptions(source.subscriptions).toBe([]);
  }));

test('the source completing or erroring while leading ends the output and unsubscribes the leadership', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const leadership = hot('-L------', values);
    expectObservable(cold(' -a|').pipe(whileLeading(leadership))).toBe('--a|');
    expectSubscriptions(leadership.subscriptions).toBe(['^--!', '^-!']);
    expectObservable(cold(' -#', undefined, new Error('boom')).pipe(whileLeading(leadership))).toBe('--#', undefined, new Error('boom'));
  }));

test('the leadership erroring or completing stops the source and ends the output', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const source = cold('-a-a-a-a-');
    expectObservable(source.pipe(whileLeading(hot('-L---#', values, new Error('lost'))))).toBe('--a-a#', undefined, new Error('lost'));
    expectObservable(source.pipe(whileLeading(hot('-L---|', values)))).toBe('--a-a|');
    expectSubscriptions(source.subscriptions).toBe(['-^---!', '-^---!']);
  }));

test('unsubscribing stops the source before the leadership (so a release comes after the work stopped)', (t) => {
  const order: string[] = [];
  const leadership = new Observable<Leadership>((subscriber) => {
    subscriber.next(L);
    return () => order.push('leadership');
  });
  const source = new Observable<number>(() => () => order.push('source'));
  source.pipe(whileLeading(leadership)).subscribe().unsubscribe();
  t.deepEqual(order, ['source', 'leadership']);
});

test('early unsubscribe of the output', (t) =>
  runMarbles(t, ({ cold, hot, expectObservable, expectSubscriptions }) => {
    const leadership = hot('-L------', values);
    const source = cold('   -a-a-a-');
    expectObservable(source.pipe(whileLeading(leadership)), '^---!').toBe('--a-');
    expectSubscriptions(source.subscriptions).toBe('-^--!');
  }));
