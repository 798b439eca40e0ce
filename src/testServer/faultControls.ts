import { failureStatus } from './faultRules.js';
import type { FaultState } from './handleRequest.js';
import { kubeStatus, tooOldResourceVersion } from './kubeStatus.js';
import type { ObjectStore } from './objectStore.js';
import type { OpenWatch } from './serverContext.js';
import type { TestApiServer } from './testApiServer.js';
import { argumentError } from '../options/optionChecks.js';

/** The control API's fault injection: on open watches, on the next requests, on credentials. @internal */
export type FaultControls = Pick<
  TestApiServer,
  'closeWatches' | 'breakWatches' | 'failWatches' | 'splitWatchLines' | 'lagWatches' | 'emitMalformedLine' | 'failNext' | 'delayResponses' | 'forbid' | 'clearFaults' | 'setToken'
>;

/**
 * The fault part of the control API. Rules for the next requests go into `faults`, which
 * `handleRequest` consumes; faults on watches act at once on the watches open now; the chunk size
 * of watch writes is read by the watches through `splitBytes()`, the watch lag through
 * `watchLagMs(resource)`. @internal
 *
 * @param loadKubeConfig points the server's KubeConfig at a new token (`setToken(…, { updateKubeConfig })`).
 */
export function faultControls(
  faults: FaultState,
  openWatches: ReadonlySet<OpenWatch>,
  store: ObjectStore,
  loadKubeConfig: (token: string | undefined) => void,
): { readonly controls: FaultControls; readonly splitBytes: () => number | undefined; readonly watchLagMs: (resource: string) => number } {
  let splitBytes: number | undefined;
  let watchLag: { readonly ms: number; readonly resource: string | undefined } | undefined;
  const eachWatch = (resource: string | undefined, act: (watch: OpenWatch) => void): number => {
    let count = 0;
    for (const watch of [...openWatches]) {
      if (resource !== undefined && watch.collection !== resource) continue;
      act(watch);
      count++;
    }
    return count;
  };
  const controls: FaultControls = {
    closeWatches: (resource) => eachWatch(resource, (watch) => watch.close()),
    breakWatches: (options = {}) => eachWatch(options.resource, (watch) => watch.breakMidLine(options.reset ?? false)),
    failWatches: (rule) =>
      eachWatch(rule.resource, (watch) => {
        const status =
          rule.status === 410 && rule.message === undefined
            ? tooOldResourceVersion(String(store.log.floor), String(store.log.floor + 1))
            : failureStatus(rule, 'watch', false, () => kubeStatus(403, 'Forbidden', rule.message ?? 'forbidden'));
        watch.fail(status);
      }),
    splitWatchLines(bytes) {
      splitBytes = bytes;
    },
    lagWatches(ms, resource) {
      if (ms !== undefined && !(ms >= 0 && Number.isFinite(ms))) throw argumentError('lagWatches', `ms must be a finite number >= 0, got ${String(ms)}`);
      watchLag = ms === undefined || ms === 0 ? undefined : { ms, resource };
    },
    emitMalformedLine: (line = '{"type":"ADDED","object":{"kind":\n', resource) => eachWatch(resource, (watch) => watch.writeRaw(line)),
    failNext: (rule) => void faults.failures.push({ rule, left: rule.count ?? 1 }),
    delayResponses: (rule) => void faults.delays.push({ rule, left: rule.count ?? Infinity }),
    forbid: (rule) => void faults.forbids.push(rule),
    clearFaults() {
      faults.failures = [];
      faults.delays = [];
      faults.forbids = [];
      splitBytes = undefined;
      watchLag = undefined;
    },
    setToken(token, options) {
      faults.token = token;
      if (options?.updateKubeConfig) loadKubeConfig(token);
    },
  };
  return {
    controls,
    splitBytes: () => splitBytes,
    watchLagMs: (resource) => (watchLag !== undefined && (watchLag.resource === undefined || watchLag.resource === resource) ? watchLag.ms : 0),
  };
}
