/* rx-informer/testing: builders, fakes and helpers for tests of informers and of code built on them. */

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
