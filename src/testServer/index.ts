/**
 * rx-informer/test-server: a Kubernetes API server in the process, for tests and demos. It speaks
 * the real protocol over HTTP on 127.0.0.1 (LIST with pages, WATCH with bookmarks, writes,
 * discovery), so kubectl, client-node and rx-informer's own sources work against it, and it injects
 * the faults a real cluster shows (410s, 429s, resets, stalls, refused connections).
 * Needs @kubernetes/client-node (for the KubeConfig it hands out).
 *
 * @module rx-informer/test-server
 */

// First, so that an old Node is told so before client-node is loaded (see the file).
import './nodeVersionGuard.js';

/* The server */
export { createTestApiServer } from './createTestApiServer.js';
export type { TestApiServer, TestApiServerConfig, ControlWriteOptions } from './testApiServer.js';
export type { CorsConfig } from './cors.js';
export { TestApiServerError } from './testApiServerError.js';

/* Many servers, one per cluster of a fleet */
export { createTestServerFleet } from './testServerFleet.js';
export type { TestServerFleet } from './testServerFleet.js';

/* Resources it serves */
export type { ResourceType, PrinterColumn } from './resourceType.js';
export { builtinResources } from './resourceType.js';
export type { JsonObject, MergePatch } from './storedObject.js';
export { initialEventsEndAnnotation } from './watchEncoding.js';

/* Fault rules and the request log */
export type { RequestFilter, FailureRule, DelayRule, ForbidRule } from './faultRules.js';
export type { Verb } from './route.js';
export type { RequestLogEntry } from './requestLogEntry.js';
