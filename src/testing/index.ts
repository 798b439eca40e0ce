/* rx-informer/testing: builders, fakes and helpers for tests of informers and of code built on them. */

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
export type { DeepEqualAssertions } from './marbles.js';
export { runMarbles } from './marbles.js';

/* Test API server */
export { createTestApiServer } from './apiServer/createTestApiServer.js';
export type { TestApiServer, TestApiServerConfig, ControlWriteOptions } from './apiServer/testApiServer.js';
export type { ResourceType } from './apiServer/resourceType.js';
export { builtinResources } from './apiServer/resourceType.js';
export type { RequestLogEntry } from './apiServer/requestLogEntry.js';
export type { RequestFilter, FailureRule, DelayRule, ForbidRule } from './apiServer/faultRules.js';
export type { Verb } from './apiServer/route.js';
export { TestApiServerError } from './apiServer/testApiServerError.js';
export type { JsonObject } from './apiServer/storedObject.js';
export { initialEventsEndAnnotation } from './apiServer/watchHandler.js';
