import test from 'ava';
import { watchStart, type WatchStart } from '../../src/testServer/watchStart.js';

// The server is at resourceVersion 100; its change log begins after 40.
const rows: Array<[string, { resourceVersion?: string; sendInitialEvents?: boolean; initialEventsDeclined?: boolean }, boolean, WatchStart]> = [
  ['no resourceVersion: the current objects, then live', {}, false, { type: 'current', sendCurrent: true }],
  ['"0": the same', { resourceVersion: '0' }, false, { type: 'current', sendCurrent: true }],
  ['"": the same', { resourceVersion: '' }, false, { type: 'current', sendCurrent: true }],
  ['"0" with sendInitialEvents=false: live only', { resourceVersion: '0', initialEventsDeclined: true }, false, { type: 'current', sendCurrent: false }],
  ['a streaming list', { resourceVersion: '', sendInitialEvents: true }, false, { type: 'initialEvents' }],
  ['a streaming list from a known resourceVersion', { resourceVersion: '70', sendInitialEvents: true }, false, { type: 'initialEvents' }],
  ['a resourceVersion in the log: replay after it', { resourceVersion: '70' }, false, { type: 'replay', from: 70 }],
  ['the current resourceVersion: replay nothing', { resourceVersion: '100' }, false, { type: 'replay', from: 100 }],
  ['the log floor itself: replay after it', { resourceVersion: '40' }, false, { type: 'replay', from: 40 }],
  ['older than the log: 410', { resourceVersion: '39' }, false, { type: 'tooOld' }],
  ['newer than the server: wait for it', { resourceVersion: '101' }, false, { type: 'wait' }],
  ['a streaming list newer than the server: wait too', { resourceVersion: '101', sendInitialEvents: true }, false, { type: 'wait' }],
  ['still newer after the wait: too large', { resourceVersion: '101' }, true, { type: 'tooLarge' }],
];

for (const [title, options, waited, expected] of rows) {
  test(title, (t) => {
    const start = watchStart({ resourceVersion: undefined, sendInitialEvents: false, initialEventsDeclined: false, ...options }, 100, 40, waited);
    t.deepEqual(start, expected);
  });
}

test('once the server has caught up, the wait ends in a replay', (t) => {
  t.deepEqual(watchStart({ resourceVersion: '101', sendInitialEvents: false, initialEventsDeclined: false }, 101, 40, true), { type: 'replay', from: 101 });
});
