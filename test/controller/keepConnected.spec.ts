/** keepConnected (internal): the controller's hold on its informers, through connect(), on virtual time. */
import test from 'ava';
import { keepConnected } from '../../src/controller/keepConnected.js';
import { informer } from '../../src/informer/informer.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { runMarbles } from '../../src/testing/marbles.js';

type E = RawEvent<KubeObject>;

test('holds every informer from subscribe to unsubscribe', (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const one = cold<E>('-');
    const two = cold<E>('-');
    expectObservable(keepConnected([informer(one), informer(two)]), '^---!').toBe('-');
    expectSubscriptions(one.subscriptions).toBe('^---!');
    expectSubscriptions(two.subscriptions).toBe('^---!');
  }));

test("an informer that fails errors with its source's error and lets go of the others", (t) =>
  runMarbles(t, ({ cold, expectObservable, expectSubscriptions }) => {
    const healthy = cold<E>('-');
    const failing = cold<E>('--#', undefined, new Error('gone for good'));
    expectObservable(keepConnected([informer(healthy), informer(failing)])).toBe('--#', undefined, new Error('gone for good'));
    expectSubscriptions(healthy.subscriptions).toBe('^-!');
  }));

test('an in-band FAILED status errors with its error; a source that completes is not an error', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const error = new Error('403 forbidden');
    const inBand = cold<E>('-f#', { f: { type: 'STATUS', status: { type: 'FAILED', error } } }, error);
    expectObservable(keepConnected([informer(inBand)])).toBe('--#', undefined, error);
    expectObservable(keepConnected([informer(cold<E>('--|'))]), '^----!').toBe('-');
  }));
