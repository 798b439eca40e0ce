import test from 'ava';
import { continueRequest, fullListRequest, listRequest, propagatesFromStart, relistResourceVersion, watchRequest } from '../../../src/sources/reflector/reflectorRequests.js';
import { resolveReflectorConfig } from '../../../src/sources/reflector/reflectorConfig.js';
import { initialMemory, type ReflectorMemory } from '../../../src/sources/reflector/reflectorState.js';

const defaults = resolveReflectorConfig({});
const mostRecent = resolveReflectorConfig({ listSemantic: 'mostRecent' });
const explicit = resolveReflectorConfig({ pageSize: 2 });
const synced = (lastSyncRV: string, flags: Partial<ReflectorMemory> = {}): ReflectorMemory => ({ ...initialMemory, lastSyncRV, ...flags });

test('R1: the first list asks for RV "0" with limit 500; with listSemantic mostRecent for RV "" with limit 500', (t) => {
  t.deepEqual(listRequest(initialMemory, defaults), { resourceVersion: '0', limit: 500 });
  t.deepEqual(listRequest(initialMemory, mostRecent), { resourceVersion: '', limit: 500 });
  t.deepEqual(listRequest(initialMemory, explicit), { resourceVersion: '0', limit: 2 });
});

test('R2: a relist at a specific RV has no limit, unless pageSize was explicit or an RV "0" list came back paginated', (t) => {
  t.deepEqual(listRequest(synced('10'), defaults), { resourceVersion: '10' });
  t.deepEqual(listRequest(synced('10'), mostRecent), { resourceVersion: '10' });
  t.deepEqual(listRequest(synced('10'), explicit), { resourceVersion: '10', limit: 2 });
  t.deepEqual(listRequest(synced('10', { paginatedResult: true }), defaults), { resourceVersion: '10', limit: 500 });
});

test('R3: once the RV is unavailable the list asks for RV "" (paged), whatever was synced', (t) => {
  t.is(relistResourceVersion(synced('10', { rvUnavailable: true }), defaults), '');
  t.deepEqual(listRequest(synced('10', { rvUnavailable: true }), defaults), { resourceVersion: '', limit: 500 });
  t.deepEqual(fullListRequest('0'), { resourceVersion: '0' });
});

test('R1: continue pages carry the limit and the token, never a resourceVersion', (t) => {
  t.deepEqual(continueRequest({ resourceVersion: '0', limit: 500 }, 'c1'), { limit: 500, continue: 'c1' });
  t.deepEqual(continueRequest({ limit: 500, continue: 'c1' }, 'c2'), { limit: 500, continue: 'c2' });
  t.deepEqual(continueRequest({ resourceVersion: '0' }, 'c1'), { continue: 'c1' });
});

test('R5: a watch from lastSyncRV with bookmarks and the given timeout', (t) => {
  t.deepEqual(watchRequest(synced('10'), false, 321), { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 321 });
  // client-go watches from LastSyncResourceVersion(): the unavailable mark only matters to lists and streaming lists.
  t.deepEqual(watchRequest(synced('10', { rvUnavailable: true }), false, 321), { resourceVersion: '10', allowWatchBookmarks: true, timeoutSeconds: 321 });
});

test('R11: a streaming list asks for the initial events, NotOlderThan, at lastSyncRV, or "" once it is unavailable', (t) => {
  const fields = { resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true, allowWatchBookmarks: true, timeoutSeconds: 400 };
  t.deepEqual(watchRequest(initialMemory, true, 400), { resourceVersion: '', ...fields });
  t.deepEqual(watchRequest(synced('10'), true, 400), { resourceVersion: '10', ...fields });
  t.deepEqual(watchRequest(synced('10', { rvUnavailable: true }), true, 400), { resourceVersion: '', ...fields });
});

test('R6: only a watch from a specific RV moves lastSyncRV from its first event', (t) => {
  t.true(propagatesFromStart(watchRequest(synced('10'), false, 1)));
  t.false(propagatesFromStart(watchRequest(synced('0'), false, 1)));
  t.false(propagatesFromStart(watchRequest(initialMemory, false, 1)));
});
