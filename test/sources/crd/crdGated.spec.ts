import test from 'ava';
import { concat, NEVER, Observable, of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { KubeApiError } from '../../../src/errors.js';
import { crdAvailability } from '../../../src/sources/crd/crdAvailability.js';
import { crdGated, reopenDelaysMs } from '../../../src/sources/crd/crdGated.js';
import type { CrdGateInput } from '../../../src/sources/crd/crdGateStep.js';
import type { RawEvent } from '../../../src/sources/rawEvent.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';

const target = { crd: 'gadgets.example.com', version: 'v1' };
const ready: CrdGateInput = {
  type: 'crd',
  availability: crdAvailability(
    { metadata: { name: 'gadgets.example.com' }, spec: { group: 'example.com', names: { plural: 'gadgets', kind: 'Gadget' }, versions: [{ name: 'v1', served: true }] }, status: { conditions: [{ type: 'Established', status: 'True' }] } },
    'v1',
  ),
};
const gone: CrdGateInput = { type: 'crd', availability: crdAvailability(undefined, 'v1') };
const notFound = new KubeApiError({ verb: 'list', resource: 'gadgets.example.com', code: 404, status: { kind: 'Status', code: 404, message: '404 page not found' } });
/** Events as short strings: statuses by type, the rest by type (LIST_DONE with its RV). */
const short = (event: RawEvent<KubeObject>): string => (event.type === 'STATUS' ? event.status.type : event.type === 'LIST_DONE' ? `LIST_DONE(${event.resourceVersion})` : event.type);

/** Runs `gated` on virtual time and gives what it emits as `frame:event`. */
function timeline(t: { deepEqual: (a: unknown, b: unknown) => void }, build: (helpers: { scheduler: TestScheduler; cold: TestScheduler['createColdObservable']; hot: TestScheduler['createHotObservable'] }) => Observable<RawEvent<KubeObject>>): string[] {
  const scheduler = new TestScheduler((a, e) => t.deepEqual(a, e));
  const seen: string[] = [];
  scheduler.run(({ cold, hot }) => {
    const sub = build({ scheduler, cold, hot }).subscribe((event) => seen.push(`${scheduler.now()}:${short(event)}`));
    scheduler.schedule(() => sub.unsubscribe(), 5_000);
  });
  return seen;
}

test('crdGated: a 404 before the first list of a source just opened opens it again after a short delay, not the reflector’s slow backoff', (t) => {
  let opened = 0;
  const seen = timeline(t, ({ scheduler, cold, hot }) =>
    crdGated(
      hot<CrdGateInput>('r', { r: ready }),
      target,
      (plural) => {
        t.is(plural, 'gadgets');
        return opened++ < 2
          ? concat(of<RawEvent<KubeObject>>({ type: 'STATUS', status: { type: 'ERROR', error: notFound, permanent: true } }), NEVER)
          : cold<RawEvent<KubeObject>>('-(sd)', { s: { type: 'LIST_START' }, d: { type: 'LIST_DONE', resourceVersion: '5' } });
      },
      scheduler,
    ),
  );
  const [first, second] = reopenDelaysMs;
  t.deepEqual(seen, ['0:CRD_ESTABLISHED', '0:ERROR', `${first}:ERROR`, `${first! + second! + 1}:LIST_START`, `${first! + second! + 1}:LIST_DONE(5)`]);
});

test('crdGated: a 404 after the first list is the reflector’s to handle (the CRD is going)', (t) => {
  const seen = timeline(t, ({ scheduler, cold, hot }) =>
    crdGated(
      hot<CrdGateInput>('r', { r: ready }),
      target,
      () => cold<RawEvent<KubeObject>>('(sd)-x', { s: { type: 'LIST_START' }, d: { type: 'LIST_DONE', resourceVersion: '5' }, x: { type: 'STATUS', status: { type: 'ERROR', error: notFound, permanent: true } } }),
      scheduler,
    ),
  );
  t.deepEqual(seen, ['0:CRD_ESTABLISHED', '0:LIST_START', '0:LIST_DONE(5)', '5:ERROR'], 'no reopen: one opening only');
});

test('crdGated: when the CRD goes, the source is closed and the cache emptied by a relist of nothing at the last RV seen', (t) => {
  let subscriptions = 0;
  let unsubscribedAt = -1;
  const seen = timeline(t, ({ scheduler, cold, hot }) => {
    const source = cold<RawEvent<KubeObject>>('-(sd)-b-', { s: { type: 'LIST_START' }, d: { type: 'LIST_DONE', resourceVersion: '5' }, b: { type: 'BOOKMARK', resourceVersion: '9' } });
    return crdGated(
      hot<CrdGateInput>('r-------g', { r: ready, g: gone }),
      target,
      () => new Observable<RawEvent<KubeObject>>((s) => {
        subscriptions++;
        const inner = source.subscribe(s);
        return () => {
          unsubscribedAt = scheduler.now();
          inner.unsubscribe();
        };
      }),
      scheduler,
    );
  });
  t.deepEqual(seen, ['0:CRD_ESTABLISHED', '1:LIST_START', '1:LIST_DONE(5)', '6:BOOKMARK', '8:LIST_START', '8:LIST_DONE(9)', '8:CRD_REMOVED']);
  t.deepEqual([subscriptions, unsubscribedAt], [1, 8], 'the source closed when the CRD went');
});
