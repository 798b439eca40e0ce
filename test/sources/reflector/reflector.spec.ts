import test from 'ava';
import type { ExecutionContext } from 'ava';
import { TestScheduler } from 'rxjs/testing';
import { Observable, throwError, timer } from 'rxjs';
import { reflector } from '../../../src/sources/reflector/reflector.js';
import type { ReflectorConfig } from '../../../src/sources/reflector/reflectorConfig.js';
import type { ListResponse, WatchMessage } from '../../../src/sources/listerWatcher.js';
import { InformerError, TransportError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import type { ListWatchStatus } from '../../../src/sources/reflector/listWatchStatus.js';
import { apiError, bookmark, cm, fakeListerWatcher, page, statusSummary, type Seen } from '../fakeListerWatcher.js';
import { collect } from '../collect.js';

type Cold = TestScheduler['createColdObservable'];
type Script = (cold: Cold) => {
  lists: Array<Observable<ListResponse<KubeObject>>>;
  watches: Array<Observable<WatchMessage<KubeObject>>>;
};

interface Outcome {
  events: string[];
  seen: Seen[];
  statuses: string[];
  raw: ListWatchStatus[];
  pending: number;
}

/** Runs a scenario on virtual time (1 frame = 1 ms) until `until`, then reports what happened. */
function scenario(
  t: ExecutionContext,
  script: Script,
  until: number,
  config: Omit<ReflectorConfig<KubeObject>, 'scheduler'> = {},
): Outcome {
  const ts = new TestScheduler((a, e) => t.deepEqual(a, e));
  const outcome: Outcome = { events: [], seen: [], statuses: [], raw: [], pending: -1 };
  ts.run(({ cold }) => {
    const { lists, watches } = script(cold as Cold);
    const { lw, seen } = fakeListerWatcher(ts, lists, watches);
    outcome.seen = seen;
    const source = reflector(lw, {
      backoff: { random: () => 0 },
      ...config,
      scheduler: ts,
      onStatus: (s) => {
        outcome.raw.push(s);
        outcome.statuses.push(`${ts.now()} ${statusSummary(s)}`);
      },
    });
    outcome.events = collect(ts, source, until);
    // Right after the unsubscribe: every timer and request must be gone.
    ts.schedule(() => {
      outcome.pending = ts.actions.filter((a) => !a.closed).length;
    }, until);
  });
  return outcome;
}

const OPEN: WatchMessage<KubeObject> = { type: 'OPEN' };
const PROGRESS: WatchMessage<KubeObject> = { type: 'PROGRESS' };
const ev = (type: 'ADDED' | 'MODIFIED' | 'DELETED', name: string, rv: string): WatchMessage<KubeObject> => ({
  type,
  object: cm(name, rv),
});
const watchReq = (resourceVersion: string) => ({ resourceVersion, allowWatchBookmarks: true, timeoutSeconds: 'T' });
const lists = (seen: Seen[]) => seen.filter((s) => s.verb === 'list');
const watches = (seen: Seen[]) => seen.filter((s) => s.verb === 'watch');

test('R1/R4/R5: first LIST at RV "0" limit 500, continue pages without RV, LIST_DONE at the first page RV, then WATCH with bookmarks', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [
        cold('--(a|)', { a: page([cm('a', '5')], '10', 'c1') }),
        cold('--(a|)', { a: page([cm('b', '6')], '11') }),
      ],
      watches: [cold('-o--x', { o: OPEN, x: ev('ADDED', 'c', '12') })],
    }),
    100,
  );
  t.deepEqual(o.events, ['0 LIST_START', '2 PAGE1(a)', '4 PAGE2(b)', '4 DONE(10)', '8 ADDED(c@12)']);
  t.deepEqual(o.seen, [
    { verb: 'list', at: 0, request: { resourceVersion: '0', limit: 500 } },
    { verb: 'list', at: 2, request: { limit: 500, continue: 'c1' } },
    { verb: 'watch', at: 4, request: watchReq('10') },
  ]);
  t.deepEqual(o.statuses, ['0 LISTING(0,0)', '2 LISTING(0,1)', '4 LISTING(0,2)', '5 WATCHING(10)']);
  t.is(o.pending, 0);
});

test('R5: timeoutSeconds is a random integer in [300, 600) per watch, or the configured one', (t) => {
  const seenTimeouts = new Set<unknown>();
  for (let i = 0; i < 20; i++) {
    const o = scenario(t, (cold) => ({ lists: [cold('-(a|)', { a: page([], '1') })], watches: [] }), 10);
    seenTimeouts.add(watches(o.seen)[0]?.request.timeoutSeconds);
  }
  t.deepEqual([...seenTimeouts], ['T']);
  const fixed = scenario(t, (cold) => ({ lists: [cold('-(a|)', { a: page([], '1') })], watches: [] }), 10, { timeoutSeconds: 42 });
  t.is(watches(fixed.seen)[0]?.request.timeoutSeconds, 42);
});

test('R2/R8: after a watch error, backoff then relist at the last synced RV without limit', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '5')], '10') }), cold('-(a|)', { a: page([cm('a', '11')], '11') })],
      watches: [cold('-o-x-#', { o: OPEN, x: ev('MODIFIED', 'a', '11') }, apiError('watch', 500, 'InternalError'))],
    }),
    2000,
  );
  t.deepEqual(o.events, ['0 LIST_START', '1 PAGE1(a)', '1 DONE(10)', '4 MODIFIED(a@11)', '806 LIST_START', '807 PAGE1(a)', '807 DONE(11)']);
  t.deepEqual(lists(o.seen).map((s) => [s.at, s.request]), [
    [0, { resourceVersion: '0', limit: 500 }],
    [806, { resourceVersion: '11' }],
  ]);
  t.deepEqual(o.statuses, [
    '0 LISTING(0,0)',
    '1 LISTING(0,1)',
    '2 WATCHING(10)',
    '6 ERROR(KubeApiError)',
    '6 BACKING_OFF(1,relist)',
    '806 RELISTING(watchError)',
    '806 LISTING(11,0)',
    '807 LISTING(11,1)',
  ]);
  t.is(o.pending, 0);
});

test('listSemantic mostRecent: the first LIST is a paged consistent read (RV ""), relists still use the last synced RV', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '10') }), cold('-(a|)', { a: page([], '12') })],
      watches: [cold('-#', {}, apiError('watch', 500))],
    }),
    2000,
    { listSemantic: 'mostRecent' },
  );
  t.deepEqual(lists(o.seen).map((s) => s.request), [{ resourceVersion: '', limit: 500 }, { resourceVersion: '10' }]);
});

test('R2: paging stays on for relists when pageSize was set explicitly', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '10') })],
      watches: [cold('-#', {}, apiError('watch', 500))],
    }),
    2000,
    { pageSize: 2 },
  );
  t.deepEqual(lists(o.seen).map((s) => s.request), [
    { resourceVersion: '0', limit: 2 },
    { resourceVersion: '10', limit: 2 },
  ]);
});

test('R2: paging stays on for relists when the RV "0" list came back paginated', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '1')], '10', 'c') }), cold('-(a|)', { a: page([cm('b', '2')], '10') })],
      watches: [cold('-#', {}, apiError('watch', 500))],
    }),
    2000,
  );
  t.deepEqual(lists(o.seen).map((s) => s.request), [
    { resourceVersion: '0', limit: 500 },
    { limit: 500, continue: 'c' },
    { resourceVersion: '10', limit: 500 },
  ]);
});

for (const [title, error] of [
  ['410 Expired', apiError('list', 410, 'Expired')],
  ['410 Gone', apiError('list', 410, 'Gone')],
  ['410 without reason', apiError('list', 410)],
  ['504 "Too large resource version"', apiError('list', 504, 'Timeout', { message: 'Too large resource version: 12, current: 10' })],
  ['cause ResourceVersionTooLarge', apiError('list', 504, 'Timeout', { details: { causes: [{ reason: 'ResourceVersionTooLarge' }] } })],
] as const) {
  test(`R3: ${title} on LIST → immediate relist with RV "" (no backoff)`, (t) => {
    const o = scenario(
      t,
      (cold) => ({
        lists: [cold('-#', {}, error), cold('-(a|)', { a: page([cm('a', '20')], '20') })],
        watches: [],
      }),
      100,
    );
    t.deepEqual(o.events, ['0 LIST_START', '1 LIST_START', '2 PAGE1(a)', '2 DONE(20)']);
    t.deepEqual(o.seen.map((s) => [s.verb, s.at, s.request.resourceVersion]), [
      ['list', 0, '0'],
      ['list', 1, ''],
      ['watch', 2, '20'],
    ]);
    t.false(o.statuses.some((s) => s.includes('BACKING_OFF')));
  });
}

test('R3: a 410 on the RV "" retry is not retried at once again: backoff, then a list at RV ""', (t) => {
  const gone = apiError('list', 410, 'Expired');
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-#', {}, gone), cold('-#', {}, gone), cold('-(a|)', { a: page([], '30') })],
      watches: [],
    }),
    2000,
  );
  t.deepEqual(lists(o.seen).map((s) => [s.at, s.request]), [
    [0, { resourceVersion: '0', limit: 500 }],
    [1, { resourceVersion: '', limit: 500 }],
    [802, { resourceVersion: '', limit: 500 }],
  ]);
  t.deepEqual(watches(o.seen).map((s) => s.request.resourceVersion), ['30']);
});

test('R3: a 410 on a continue page → LIST_START and one full unpaginated list at the original RV', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [
        cold('-(a|)', { a: page([cm('a', '1')], '10', 'c1') }),
        cold('-#', {}, apiError('list', 410, 'Expired')),
        cold('-(a|)', { a: page([cm('a', '1'), cm('b', '2')], '12') }),
      ],
      watches: [],
    }),
    100,
  );
  t.deepEqual(o.events, ['0 LIST_START', '1 PAGE1(a)', '2 LIST_START', '3 PAGE1(a,b)', '3 DONE(12)']);
  t.deepEqual(o.seen.map((s) => s.request), [
    { resourceVersion: '0', limit: 500 },
    { limit: 500, continue: 'c1' },
    { resourceVersion: '0' },
    watchReq('12'),
  ]);
  t.true(o.statuses.includes('2 RELISTING(expiredContinue)'));
});

test('R6/R7: lastSyncRV is the last event RV (not the max), bookmarks advance it, clean closes re-watch at once', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '50') })],
      watches: [
        cold('-a-b-|', { a: ev('MODIFIED', 'x', '55'), b: ev('ADDED', 'y', '32') }),
        cold('-k|', { k: bookmark('70') }),
      ],
    }),
    100,
  );
  t.deepEqual(o.events, ['0 LIST_START', '1 PAGE1()', '1 DONE(50)', '2 MODIFIED(x@55)', '4 ADDED(y@32)', '7 BOOKMARK(70)']);
  t.deepEqual(o.seen.map((s) => [s.verb, s.at, s.request.resourceVersion]), [
    ['list', 0, '0'],
    ['watch', 1, '50'],
    ['watch', 6, '32'],
    ['watch', 8, '70'],
  ]);
  t.false(o.statuses.some((s) => s.includes('BACKING_OFF') || s.includes('RELISTING')));
});

test('R6: a watch started at RV "" does not take RVs from ADDED events until a non-ADDED event', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '') })],
      watches: [
        cold('-a-b-|', { a: ev('ADDED', 'x', '5'), b: ev('ADDED', 'y', '6') }),
        cold('-a-m-|', { a: ev('ADDED', 'z', '7'), m: ev('MODIFIED', 'z', '8') }),
      ],
    }),
    100,
  );
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, ''],
    [6, ''],
    [11, '8'],
  ]);
});

test('R7: a watch closing after ≥ 1 s without events re-watches from the same RV, no relist, no backoff', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold('-o 998ms |', { o: OPEN })] }),
    5000,
  );
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [1001, '10'],
  ]);
  t.is(lists(o.seen).length, 1);
});

test('R8: a very short watch (< 1 s, no events) is an error: backoff, then relist', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') }), cold('-(a|)', { a: page([], '11') })], watches: [cold('-o-|', { o: OPEN })] }),
    2000,
  );
  t.deepEqual(o.seen.map((s) => [s.verb, s.at, s.request.resourceVersion]), [
    ['list', 0, '0'],
    ['watch', 1, '10'],
    ['list', 804, '10'],
    ['watch', 805, '11'],
  ]);
  t.true(o.statuses.includes('4 ERROR(TransportError:veryShortWatch)'));
  t.true(o.statuses.includes('804 RELISTING(veryShortWatch)'));
});

test('R8: an in-stream 410 → backoff, then relist at lastSyncRV (not "")', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '5')], '10') }), cold('-(a|)', { a: page([cm('a', '11')], '11') })],
      watches: [cold('-o-m-#', { o: OPEN, m: ev('MODIFIED', 'a', '11') }, apiError('watch', 410, 'Expired'))],
    }),
    2000,
  );
  t.deepEqual(lists(o.seen).map((s) => [s.at, s.request]), [
    [0, { resourceVersion: '0', limit: 500 }],
    [806, { resourceVersion: '11' }],
  ]);
  t.true(o.statuses.includes('806 RELISTING(expired)'));
  t.true(o.events.includes('806 LIST_START'));
});

test('R9: an HTTP 410 on watch open is treated as expired: backoff, then relist', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold('-#', {}, apiError('watch', 410))] }),
    2000,
  );
  t.deepEqual(o.seen.map((s) => [s.verb, s.at]), [
    ['list', 0],
    ['watch', 1],
    ['list', 802],
  ]);
  t.true(o.statuses.includes('802 RELISTING(expired)'));
});

test('R9/R10: five 429s on watch open → one LIST and six WATCHes at doubling delays, no relist', (t) => {
  const tooMany = apiError('watch', 429, 'TooManyRequests');
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '10') })],
      watches: [...Array.from({ length: 5 }, () => cold<WatchMessage<KubeObject>>('-#', {}, tooMany)), cold('-o', { o: OPEN })],
    }),
    60_000,
  );
  t.is(lists(o.seen).length, 1);
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [802, '10'],
    [2403, '10'],
    [5604, '10'],
    [12005, '10'],
    [24806, '10'],
  ]);
  t.deepEqual(
    o.raw.flatMap((s) => (s.type === 'BACKING_OFF' ? [[s.attempt, s.delay, s.next]] : [])),
    [
      [1, 800, 'rewatch'],
      [2, 1600, 'rewatch'],
      [3, 3200, 'rewatch'],
      [4, 6400, 'rewatch'],
      [5, 12800, 'rewatch'],
    ],
  );
  t.true(o.statuses.includes('24807 WATCHING(10)'));
});

test('R9: 429 honours Retry-After / details.retryAfterSeconds', (t) => {
  const header = apiError('watch', 429, 'TooManyRequests');
  const withHeader = Object.assign(Object.create(Object.getPrototypeOf(header)), header, { retryAfterSeconds: 7 });
  const inBody = apiError('watch', 429, 'TooManyRequests', { details: { retryAfterSeconds: 3 } });
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold('-#', {}, withHeader), cold('-#', {}, inBody)] }),
    20_000,
  );
  t.deepEqual(watches(o.seen).map((s) => s.at), [1, 7002, 10003]);
});

test('R9: connection refused on watch open → backoff and re-watch without relist', (t) => {
  const refused = new TransportError('watch', 'connect ECONNREFUSED 127.0.0.1:1', { code: 'ECONNREFUSED' });
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold('-#', {}, refused), cold('-#', {}, refused)] }),
    5000,
  );
  t.deepEqual(o.seen.map((s) => [s.verb, s.at]), [
    ['list', 0],
    ['watch', 1],
    ['watch', 802],
    ['watch', 2403],
  ]);
});

test('a connection reset mid-stream is a close: re-watch at once from the last RV', (t) => {
  const reset = new TransportError('watch', 'socket hang up', { code: 'ECONNRESET' });
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '10') })],
      watches: [cold('-o-a-#', { o: OPEN, a: ev('ADDED', 'a', '11') }, reset)],
    }),
    100,
  );
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [6, '11'],
  ]);
  t.is(lists(o.seen).length, 1);
});

test('403: a typed error naming verb, resource and namespace, retried at the slow end of the backoff', (t) => {
  const forbidden = apiError('list', 403, 'Forbidden');
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-#', {}, forbidden), cold('-#', {}, forbidden)], watches: [] }),
    100_000,
  );
  t.deepEqual(lists(o.seen).map((s) => s.at), [0, 30_001, 60_002]);
  const error = o.raw.find((s) => s.type === 'ERROR');
  t.is(error?.type === 'ERROR' && error.error.message, '[informer] cannot list configmaps in namespace ns: forbidden (Forbidden)');
  t.true(error?.type === 'ERROR' && error.permanent);
  t.is(o.events.filter((e) => e.includes('error')).length, 0);
});

test('404 with fatalErrors: "permanent" errors the Observable', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-#', {}, apiError('list', 404, 'NotFound'))], watches: [] }),
    100_000,
    { fatalErrors: 'permanent' },
  );
  t.deepEqual(o.events, [
    '0 LIST_START',
    '1 error KubeApiError: [informer] cannot list configmaps in namespace ns: not found (NotFound)',
  ]);
  t.is(o.seen.length, 1);
  t.is(o.pending, 0);
});

test('statuses come in band too, in order with the events and equal to the onStatus calls; a fatal error is preceded by FAILED', (t) => {
  const ts = new TestScheduler((a, e) => t.deepEqual(a, e));
  const onStatus: string[] = [];
  let events: string[] = [];
  ts.run(({ cold }) => {
    const { lw } = fakeListerWatcher(ts, [cold<ListResponse<KubeObject>>('-#', {}, apiError('list', 404, 'NotFound'))], []);
    const source = reflector(lw, { scheduler: ts, fatalErrors: 'permanent', onStatus: (s) => onStatus.push(statusSummary(s)) });
    events = collect(ts, source, 100, true);
  });
  t.deepEqual(events, [
    '0 LIST_START',
    '0 STATUS(LISTING)',
    '1 STATUS(ERROR)',
    '1 STATUS(FAILED)',
    '1 error KubeApiError: [informer] cannot list configmaps in namespace ns: not found (NotFound)',
  ]);
  t.deepEqual(onStatus, ['LISTING(0,0)', 'ERROR(KubeApiError,permanent)', 'FAILED(KubeApiError)']);
});

test('R10: backoff stays in [30, 60) s in steady state and resets after 2 min without failures', (t) => {
  const error = apiError('list', 500, 'InternalError');
  const o = scenario(
    t,
    (cold) => ({
      lists: [...Array.from({ length: 9 }, () => cold<ListResponse<KubeObject>>('-#', {}, error)), cold('-(a|)', { a: page([], '1') }), cold<ListResponse<KubeObject>>('-#', {}, error)],
      watches: [cold('-o 200000ms #', { o: OPEN }, apiError('watch', 500))],
    }),
    1_000_000,
    { backoff: { random: () => 0.999999 }, idleTimeout: 10_000_000 },
  );
  const delays = o.raw.flatMap((s) => (s.type === 'BACKING_OFF' ? [s.delay] : []));
  t.true(delays[0]! >= 800 && delays[0]! < 1600);
  for (const d of delays.slice(6, 9)) t.true(d >= 30_000 && d < 60_000, `steady delay ${d}`);
  // The watch ran 200 s: the next failure starts over at the short end.
  t.true(delays[9]! >= 800 && delays[9]! < 1600, `after reset ${delays[9]}`);
});

test('idle watchdog: no byte for idleTimeout → abort and re-watch from the last RV (PROGRESS keeps it alive)', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([], '10') })],
      watches: [cold('-o 50ms p 50ms a', { o: OPEN, p: PROGRESS, a: ev('ADDED', 'a', '11') })],
    }),
    300,
    { idleTimeout: 100 },
  );
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [204, '11'],
  ]);
  t.true(o.statuses.includes('204 ERROR(TransportError:stalled)'));
  t.is(lists(o.seen).length, 1);
});

test('idle watchdog: a stalled watch without events is not "very short" even under 1 s: re-watch, no relist', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold('-o', { o: OPEN })] }),
    300,
    { idleTimeout: 100 },
  );
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [102, '10'],
    [202, '10'],
  ]);
  t.is(lists(o.seen).length, 1);
});

test('idle watchdog also bounds a hanging LIST page: backoff and relist', (t) => {
  const o = scenario(t, (cold) => ({ lists: [cold<ListResponse<KubeObject>>('-'), cold('-(a|)', { a: page([], '1') })], watches: [] }), 2000, { idleTimeout: 100 });
  t.deepEqual(lists(o.seen).map((s) => s.at), [0, 900]);
  t.true(o.statuses.includes('100 ERROR(TransportError:stalled)'));
});

test('a watch with no response within waitingAfter is reported WAITING (cause and remedy named), and aborted as noResponse after noResponseTimeout, then opened again; no relist', (t) => {
  // Issue 41: in a browser on HTTP/1.1 the seventh watch queues behind six open ones and nothing
  // was reported until the idle timeout. Now the wait is a status, then an error, and again.
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('-(a|)', { a: page([], '10') })], watches: [cold<WatchMessage<KubeObject>>('-'), cold('-o', { o: OPEN })] }),
    400,
    { waitingAfter: 50, noResponseTimeout: 200, idleTimeout: 10_000 },
  );
  t.deepEqual(o.statuses.slice(2), ['51 WAITING(watch,50)', '201 ERROR(TransportError:noResponse)', '202 WATCHING(10)']);
  const waiting = o.raw.find((s) => s.type === 'WAITING');
  t.regex(waiting?.type === 'WAITING' ? waiting.message : '', /no response to the watch after 50 ms.*per-host connection limit.*rx-informer\/relay.*HTTP\/2/);
  const error = o.raw.find((s) => s.type === 'ERROR');
  t.regex(error?.type === 'ERROR' ? error.error.message : '', /per-host connection limit/);
  t.deepEqual(watches(o.seen).map((s) => [s.at, s.request.resourceVersion]), [
    [1, '10'],
    [201, '10'],
  ]);
  t.is(lists(o.seen).length, 1);
});

test('a LIST with no response is reported WAITING once, and left to the idle watchdog (a big list may be slow to start)', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('300ms (a|)', { a: page([], '10') })], watches: [cold('-o', { o: OPEN })] }),
    400,
    { waitingAfter: 50, noResponseTimeout: 100, idleTimeout: 10_000 },
  );
  t.deepEqual(o.statuses, ['0 LISTING(0,0)', '50 WAITING(list,50)', '300 LISTING(0,1)', '301 WATCHING(10)']);
});

test('a request that answers within waitingAfter is not reported waiting', (t) => {
  const o = scenario(
    t,
    (cold) => ({ lists: [cold('40ms (a|)', { a: page([], '10') })], watches: [cold('40ms o 100ms a', { o: OPEN, a: ev('ADDED', 'a', '11') })] }),
    400,
    { waitingAfter: 50, noResponseTimeout: 100, idleTimeout: 10_000 },
  );
  t.false(o.statuses.some((s) => s.includes('WAITING') || s.includes('ERROR')), o.statuses.join(', '));
  t.is(watches(o.seen).length, 1);
});

test('R11: streaming list buffers ADDED/MODIFIED/DELETED until the initial-events-end bookmark, then keeps the stream', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [],
      watches: [
        cold('-o-a-b-d-k-e-m', {
          o: OPEN,
          a: ev('ADDED', 'x', '5'),
          b: ev('ADDED', 'y', '6'),
          d: ev('DELETED', 'x', '7'),
          k: bookmark('7'),
          e: bookmark('8', true),
          m: ev('MODIFIED', 'y', '9'),
        }),
      ],
    }),
    100,
    { streamingList: true },
  );
  t.deepEqual(o.events, ['0 LIST_START', '11 PAGE1(y)', '11 DONE(8)', '13 MODIFIED(y@9)']);
  t.deepEqual(o.seen, [
    {
      verb: 'watch',
      at: 0,
      request: { resourceVersion: '', resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, allowWatchBookmarks: true, timeoutSeconds: 'T' },
    },
  ]);
  t.true(o.statuses.includes('11 WATCHING(8)'));
});

test('R11: streaming list falls back to LIST on an error', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '3')], '3') })],
      watches: [cold('-#', {}, apiError('watch', 400, 'BadRequest')), cold('-o', { o: OPEN })],
    }),
    100,
    { streamingList: true },
  );
  t.deepEqual(o.events, ['0 LIST_START', '1 LIST_START', '2 PAGE1(a)', '2 DONE(3)']);
  t.deepEqual(o.seen.map((s) => [s.verb, s.at, s.request.resourceVersion]), [
    ['watch', 0, ''],
    ['list', 1, '0'],
    ['watch', 2, '3'],
  ]);
  t.true(o.statuses.includes('1 RELISTING(streamingFallback)'));
});

test('R11: a stream that stops before the bookmark is retried with LIST_START and a fresh buffer; 410 retries at RV ""', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [],
      watches: [
        cold('-o-a-|', { o: OPEN, a: ev('ADDED', 'gone', '5') }),
        cold('-o-b-e-#', { o: OPEN, b: ev('ADDED', 'y', '6'), e: bookmark('8', true) }, apiError('watch', 410, 'Expired')),
        cold('-#', {}, apiError('watch', 410, 'Expired')),
        cold('-o-e', { o: OPEN, e: bookmark('9', true) }),
      ],
    }),
    2000,
    { streamingList: true },
  );
  t.deepEqual(o.events, ['0 LIST_START', '5 LIST_START', '10 PAGE1(y)', '10 DONE(8)', '812 LIST_START', '813 LIST_START', '816 DONE(9)']);
  t.deepEqual(o.seen.map((s) => [s.at, s.request.resourceVersion, (s.request as Record<string, unknown>)['sendInitialEvents']]), [
    [0, '', true],
    [5, '', true],
    [812, '8', true],
    [813, '', true],
  ]);
});

test('transform is applied to list items and watch objects', (t) => {
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '1')], '1') })],
      watches: [cold('-a', { a: ev('ADDED', 'b', '2') })],
    }),
    100,
    { transform: (o) => ({ ...o, metadata: { ...o.metadata, name: `${o.metadata?.name}!` } }) },
  );
  t.deepEqual(o.events, ['0 LIST_START', '1 PAGE1(a!)', '1 DONE(1)', '2 ADDED(b!@2)']);
});

test('a throwing transform is a TransformError on the status stream: the cycle ends, backoff, relist (list and watch)', (t) => {
  let throws = 2; // the first list page, then the first watch event
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('-(a|)', { a: page([cm('a', '1')], '1') }), cold('-(a|)', { a: page([cm('a', '1')], '1') }), cold('-(a|)', { a: page([cm('a', '1')], '3') })],
      watches: [cold('-o-x', { o: OPEN, x: ev('ADDED', 'b', '2') })],
    }),
    3000,
    {
      transform: (object) => {
        if (throws > 0 && (object.metadata?.name === 'a' ? throws === 2 : throws === 1)) {
          throws--;
          throw new TypeError('boom');
        }
        return object;
      },
    },
  );
  t.deepEqual(o.events, ['0 LIST_START', '801 LIST_START', '802 PAGE1(a)', '802 DONE(1)', '2405 LIST_START', '2406 PAGE1(a)', '2406 DONE(3)']);
  t.deepEqual(o.statuses.filter((s) => /ERROR|BACKING_OFF|RELISTING/.test(s)), [
    '1 ERROR(TransformError)',
    '1 BACKING_OFF(1,relist)',
    '801 RELISTING(listError)',
    '805 ERROR(TransformError)',
    '805 BACKING_OFF(2,relist)',
    '2405 RELISTING(watchError)',
  ]);
  const error = o.raw.find((s) => s.type === 'ERROR');
  t.is(error?.type === 'ERROR' ? error.error.message : '', '[informer] transform threw: boom');
  t.is(o.pending, 0);
});

test('unsubscribe aborts the in-flight watch and clears the watchdog and backoff timers', (t) => {
  const ts = new TestScheduler((a, e) => t.deepEqual(a, e));
  ts.run(({ cold, expectSubscriptions }) => {
    const w = cold('-o-a', { o: OPEN, a: ev('ADDED', 'a', '2') });
    const { lw } = fakeListerWatcher(ts, [cold('-(a|)', { a: page([], '1') })], [w]);
    collect(ts, reflector(lw, { scheduler: ts }), 10);
    expectSubscriptions(w.subscriptions).toBe('-^--------!');
    ts.schedule(() => t.is(ts.actions.filter((a) => !a.closed).length, 0), 10);
  });
  // And during a backoff:
  const o = scenario(t, (cold) => ({ lists: [cold('-#', {}, apiError('list', 500))], watches: [] }), 100);
  t.true(o.statuses.includes('1 BACKING_OFF(1,relist)'));
  t.is(o.pending, 0);
});

test('an aborted signal completes the Observable and stops everything', (t) => {
  const controller = new AbortController();
  const ts = new TestScheduler((a, e) => t.deepEqual(a, e));
  let out: string[] = [];
  ts.run(({ cold }) => {
    const { lw } = fakeListerWatcher(ts, [cold('-(a|)', { a: page([], '1') })], [cold('-o', { o: OPEN })]);
    out = collect(ts, reflector(lw, { scheduler: ts, signal: controller.signal }), 1000);
    ts.schedule(() => controller.abort(), 5);
    // Only collect()'s own unsubscribe action at 1000 is left.
    ts.schedule(() => t.is(ts.actions.filter((a) => !a.closed).length, 1), 6);
  });
  t.deepEqual(out, ['0 LIST_START', '1 PAGE1()', '1 DONE(1)', '5 complete']);
});

test('arguments are validated at call time', (t) => {
  const lw = { list: () => { throw new Error('no'); }, watch: () => { throw new Error('no'); } };
  t.throws(() => reflector(lw, { pageSize: 0 }), { instanceOf: TypeError, message: /pageSize/ });
  t.throws(() => reflector(lw, { backoff: { initialDelay: -1 } }), { instanceOf: TypeError, message: /initialDelay/ });
  t.throws(() => reflector(lw, { fatalErrors: 'sometimes' as 'permanent' }), { instanceOf: TypeError });
});

/* ---------------------------------------------------------------- afterList: the hook between a LIST and its WATCH */

test('afterList: called after each LIST with what was listed; an Observable it returns delays the WATCH until it completes', (t) => {
  const calls: string[] = [];
  const o = scenario(
    t,
    (cold) => ({
      lists: [cold('--(a|)', { a: page([cm('a', '5'), cm('b', '5')], '10') }), cold('-(a|)', { a: page([cm('a', '12')], '12') })],
      watches: [cold('-o-#', { o: OPEN }, apiError('watch', 410, 'Expired')), cold('-o', { o: OPEN })],
    }),
    100,
    {
      backoff: { initialDelay: 5, random: () => 0 },
      afterList: (listed) => {
        calls.push(JSON.stringify(listed));
        return timer(20); // virtual time: TestScheduler.run() makes timer() use it
      },
    },
  );
  // list done at 2, watch at 22; it fails at 25, 5 ms of backoff: relist at 30, done at 31, watch at 51
  t.deepEqual(
    o.seen.map((s) => `${s.at} ${s.verb}`),
    ['0 list', '22 watch', '30 list', '51 watch'],
  );
  t.deepEqual(o.events, ['0 LIST_START', '2 PAGE1(a,b)', '2 DONE(10)', '30 LIST_START', '31 PAGE1(a)', '31 DONE(12)']);
  t.is(o.pending, 0);
  t.deepEqual(calls, [
    JSON.stringify({ resourceVersion: '10', items: 2, relist: false, streaming: false }),
    JSON.stringify({ resourceVersion: '12', items: 1, relist: true, streaming: false }),
  ]);
});

test('afterList: a hook that throws, or whose Observable errors, is reported as ERROR (InformerError hook) and the WATCH starts at once', (t) => {
  for (const afterList of [
    () => {
      throw new Error('boom');
    },
    () => throwError(() => new Error('boom later')),
  ]) {
    const o = scenario(t, (cold) => ({ lists: [cold('-(a|)', { a: page([cm('a', '5')], '5') })], watches: [cold('-o', { o: OPEN })] }), 50, { afterList });
    t.deepEqual(o.seen.map((s) => `${s.at} ${s.verb}`), ['0 list', '1 watch']);
    const error = o.raw.find((s) => s.type === 'ERROR');
    t.true(error?.type === 'ERROR' && error.error instanceof InformerError && error.error.reason === 'hook' && /afterList threw: boom/.test(error.error.message) && !error.permanent, JSON.stringify(o.statuses));
    t.deepEqual(o.statuses.slice(-1), ['2 WATCHING(5)']);
  }
});

test('afterList: unsubscribing while it runs cancels it and starts no WATCH', (t) => {
  let cancelled = false;
  const o = scenario(t, (cold) => ({ lists: [cold('-(a|)', { a: page([], '5') })], watches: [cold('-o', { o: OPEN })] }), 30, {
    afterList: () => new Observable<never>(() => () => void (cancelled = true)),
  });
  t.deepEqual(o.seen.map((s) => s.verb), ['list']);
  t.true(cancelled);
  t.is(o.pending, 0);
});

test('afterList with a streaming list: called at the initial-events-end bookmark; it only observes (the stream goes on)', (t) => {
  const calls: unknown[] = [];
  const o = scenario(
    t,
    (cold) => ({
      lists: [],
      watches: [cold('-o-a-e-m', { o: OPEN, a: ev('ADDED', 'x', '5'), e: bookmark('6', true), m: ev('MODIFIED', 'x', '7') })],
    }),
    50,
    { streamingList: true, afterList: (listed) => void calls.push(listed) },
  );
  t.deepEqual(calls, [{ resourceVersion: '6', items: 1, relist: false, streaming: true }]);
  t.deepEqual(o.events, ['0 LIST_START', '5 PAGE1(x)', '5 DONE(6)', '7 MODIFIED(x@7)']);
});

test('afterList must be a function: a TypeError at the call', (t) => {
  const { lw } = fakeListerWatcher(new TestScheduler(() => undefined), [], []);
  t.throws(() => reflector(lw, { afterList: 42 as never }), { instanceOf: TypeError, message: /afterList must be a function/ });
});
