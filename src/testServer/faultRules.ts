import type { RequestLogEntry } from './requestLogEntry.js';
import { continueTooOldMessage, kubeStatus, type KubeStatus } from './kubeStatus.js';
import type { Verb } from './route.js';

/** Which requests a fault applies to. Every given criterion must hold; none given = every resource request. */
export interface RequestFilter {
  /** Only these verbs (`list`, `watch`, `get`, `create`…). */
  readonly verbs?: readonly Verb[];
  /** Only this collection (`configmaps`, `widgets.example.com`). */
  readonly resource?: string;
  /** Only requests for which this returns true (e.g. `r => r.query.continue !== undefined`). */
  readonly match?: (request: RequestLogEntry) => boolean;
}

/** Answer the next `count` matching requests with an error status instead of serving them. */
export interface FailureRule extends RequestFilter {
  /** HTTP status: 429, 500, 403, 401, 410, 503, 504… */
  readonly status: number;
  /** How many requests to fail (default 1). `Infinity` until {@link TestApiServer.clearFaults}. */
  readonly count?: number;
  /** For 429/503: `Retry-After` header and Status `details.retryAfterSeconds` (default 1 for 429). */
  readonly retryAfterSeconds?: number;
  /** Overrides the Status message. */
  readonly message?: string;
}

/** Hold the response to the next `count` matching requests for `ms` milliseconds. */
export interface DelayRule extends RequestFilter {
  /** How long each matching response is held, ms. */
  readonly ms: number;
  /** Default `Infinity`: every matching request until {@link TestApiServer.clearFaults}. */
  readonly count?: number;
}

/** Deny matching requests with a 403 worded like RBAC's, until cleared. */
export interface ForbidRule {
  /** Only these verbs (`list`, `watch`, `get`, `create`…). Default: every verb. */
  readonly verbs?: readonly Verb[];
  /** Only this collection (`configmaps`, `widgets.example.com`). Default: every collection. */
  readonly resource?: string;
  /** Only requests in this namespace. Default: every namespace, and cluster-scoped requests. */
  readonly namespace?: string;
}

/** Whether `filter` selects `request`. @internal */
export function matchesFilter(filter: RequestFilter, request: RequestLogEntry): boolean {
  if (request.verb === undefined) return false;
  if (filter.verbs !== undefined && !filter.verbs.includes(request.verb)) return false;
  if (filter.resource !== undefined && filter.resource !== request.resource) return false;
  return filter.match === undefined || filter.match(request);
}

/** The 403 Status RBAC sends, e.g. `configmaps is forbidden: User "x" cannot watch resource "configmaps" in API group "" in the namespace "ns"`. @internal */
export function forbiddenStatus(user: string, request: RequestLogEntry, group: string, plural: string, subresource: string | undefined): KubeStatus {
  const subject = request.name !== undefined && request.verb !== 'list' && request.verb !== 'watch' ? `${plural} "${request.name}"` : plural;
  const scope = request.namespace !== undefined ? `in the namespace "${request.namespace}"` : 'at the cluster scope';
  const resource = subresource !== undefined ? `${plural}/${subresource}` : plural;
  return kubeStatus(403, 'Forbidden', `${subject} is forbidden: User "${user}" cannot ${request.verb ?? 'get'} resource "${resource}" in API group "${group}" ${scope}`, {
    ...(request.name !== undefined ? { name: request.name } : {}),
    ...(group !== '' ? { group } : {}),
    kind: plural,
  });
}

/** The 401 Status. @internal */
export const unauthorizedStatus: KubeStatus = kubeStatus(401, 'Unauthorized', 'Unauthorized');

/** The Status for an injected failure of `rule` on a request with this verb (and continue token or not). @internal */
export function failureStatus(rule: Pick<FailureRule, 'status' | 'message' | 'retryAfterSeconds'>, verb: Verb | undefined, continuing: boolean, forbidden: () => KubeStatus): KubeStatus {
  const m = rule.message;
  switch (rule.status) {
    case 401:
      return m === undefined ? unauthorizedStatus : kubeStatus(401, 'Unauthorized', m);
    case 403:
      return m === undefined ? forbidden() : kubeStatus(403, 'Forbidden', m);
    case 410: {
      const text =
        m ??
        (continuing
          ? continueTooOldMessage
          : verb === 'watch'
            ? 'The resourceVersion for the provided watch is too old.'
            : 'The resourceVersion for the provided list is too old.');
      return kubeStatus(410, 'Expired', text);
    }
    case 429:
      return kubeStatus(429, 'TooManyRequests', m ?? 'Too many requests, please try again later.', { retryAfterSeconds: rule.retryAfterSeconds ?? 1 });
    case 500:
      return kubeStatus(500, 'InternalError', `Internal error occurred: ${m ?? 'injected failure'}`, { causes: [{ message: m ?? 'injected failure' }] });
    case 503:
      return kubeStatus(503, 'ServiceUnavailable', m ?? 'the server is currently unable to handle the request', rule.retryAfterSeconds !== undefined ? { retryAfterSeconds: rule.retryAfterSeconds } : undefined);
    case 504:
      return kubeStatus(504, 'Timeout', m ?? 'the server was unable to return a response in the time allotted, but may still be processing the request');
    case 404:
      return kubeStatus(404, 'NotFound', m ?? 'the server could not find the requested resource', {});
    default:
      return kubeStatus(rule.status, 'InternalError', m ?? `injected failure ${rule.status}`);
  }
}
