/**
 * rx-informer/testing: builders, fakes and marble helpers for tests of informers and of code built
 * on them. Needs rxjs only; the in-process API server is rx-informer/test-server.
 *
 * @module rx-informer/testing
 */

/* Raw event builders */
export { added, modified, deleted, bookmark, listStart, listPage, listDone, listEvents } from './events.js';

/* Object factories */
export type { ObjectOptions, ConfigMapObject, PodObject } from './objects.js';
export { configMap, pod, withResourceVersion } from './objects.js';

/* Fake sources */
export type { FakeListWatch } from './fakeListWatch.js';
export { fakeListWatch } from './fakeListWatch.js';
export { marbleSource } from './marbles.js';

/* Marble testing */
export type { DeepEqualAssertions, NodeTestContextAssertions } from './marbles.js';
export { runMarbles } from './marbles.js';
