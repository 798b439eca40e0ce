import type { KubeObject } from 'rx-informer';
import type { Column } from './column.js';
import { formatAge } from './formatAge.js';
import { count, field, list, text } from './objectFields.js';

type Json = Readonly<Record<string, unknown>>;

/**
 * kubectl's pod columns between NAME and AGE (READY, STATUS, RESTARTS) and its wide ones after AGE
 * (IP, NODE, NOMINATED NODE, READINESS GATES), as `[before, after]`.
 */
export const podColumns: readonly [readonly Column[], readonly Column[]] = [
  [
    { header: 'READY', value: (pod, now) => ((s) => `${s.ready}/${s.total}`)(podSummary(pod, now)) },
    { header: 'STATUS', value: (pod, now) => podSummary(pod, now).status },
    { header: 'RESTARTS', value: (pod, now) => podSummary(pod, now).restarts },
  ],
  [
    { header: 'IP', value: (pod) => text(field(pod, 'status', 'podIP')), wide: true },
    { header: 'NODE', value: (pod) => text(field(pod, 'spec', 'nodeName')), wide: true },
    { header: 'NOMINATED NODE', value: (pod) => text(field(pod, 'status', 'nominatedNodeName')), wide: true },
    { header: 'READINESS GATES', value: readinessGates, wide: true },
  ],
];

/** A pod's READY counts, STATUS and RESTARTS as kubectl works them out. */
export interface PodSummary {
  readonly ready: number;
  readonly total: number;
  readonly status: string;
  /** `3`, or `3 (2m5s ago)` when the last restart's time is known. */
  readonly restarts: string;
}

/**
 * kubectl's reading of a pod: the reason of the first init container that has not finished
 * (`Init:1/2`, `Init:CrashLoopBackOff`), else of the first app container that is waiting or
 * terminated (`ContainerCreating`, `Completed`, `ExitCode:1`), else the pod's reason or phase;
 * `Terminating` once deleted (`Unknown` for a lost node); a `Completed` pod with a running container
 * is `Running` or `NotReady`. Restartable init containers (sidecars) count as containers.
 *
 * @param pod the pod.
 * @param now for the age of the last restart.
 */
export function podSummary(pod: KubeObject, now: number): PodSummary {
  const specContainers = list(field(pod, 'spec', 'containers'));
  const specInit = list(field(pod, 'spec', 'initContainers'));
  const sidecars = new Set(specInit.filter((c) => c['restartPolicy'] === 'Always').map((c) => c['name']));
  let total = specContainers.length + sidecars.size;
  let ready = 0;
  let restarts = 0;
  let lastRestart: number | undefined;
  const countRestarts = (status: Json): void => {
    restarts += count(status['restartCount']);
    const finished = Date.parse(String(field(status, 'lastState', 'terminated', 'finishedAt') ?? ''));
    if (!Number.isNaN(finished) && (lastRestart === undefined || finished > lastRestart)) lastRestart = finished;
  };
  let reason = text(field(pod, 'status', 'reason'), text(field(pod, 'status', 'phase'), 'Pending'));
  if (list(field(pod, 'status', 'conditions')).some((c) => c['type'] === 'PodScheduled' && c['reason'] === 'SchedulingGated')) reason = 'SchedulingGated';

  let initializing = false;
  const initStatuses = list(field(pod, 'status', 'initContainerStatuses'));
  for (const [i, status] of initStatuses.entries()) {
    countRestarts(status);
    const terminated = field(status, 'state', 'terminated');
    const waiting = field(status, 'state', 'waiting');
    if (terminated !== undefined && field(terminated, 'exitCode') === 0) continue;
    if (sidecars.has(status['name']) && status['started'] === true) {
      if (status['ready'] === true) ready++;
      continue;
    }
    initializing = true;
    if (terminated !== undefined) reason = `Init:${terminatedReason(terminated)}`;
    else if (typeof field(waiting, 'reason') === 'string' && field(waiting, 'reason') !== '' && field(waiting, 'reason') !== 'PodInitializing') reason = `Init:${String(field(waiting, 'reason'))}`;
    else reason = `Init:${i}/${specInit.length}`;
    break;
  }

  if (!initializing || list(field(pod, 'status', 'conditions')).some((c) => c['type'] === 'Initialized' && c['status'] === 'True')) {
    let hasRunning = false;
    const statuses = list(field(pod, 'status', 'containerStatuses'));
    total = Math.max(total, statuses.length + sidecars.size);
    for (const status of [...statuses].reverse()) {
      countRestarts(status);
      const waiting = field(status, 'state', 'waiting');
      const terminated = field(status, 'state', 'terminated');
      if (typeof field(waiting, 'reason') === 'string' && field(waiting, 'reason') !== '') reason = String(field(waiting, 'reason'));
      else if (terminated !== undefined) reason = terminatedReason(terminated);
      else if (status['ready'] === true && field(status, 'state', 'running') !== undefined) {
        hasRunning = true;
        ready++;
      }
    }
    if (reason === 'Completed' && hasRunning) {
      reason = list(field(pod, 'status', 'conditions')).some((c) => c['type'] === 'Ready' && c['status'] === 'True') ? 'Running' : 'NotReady';
    }
  }
  if (field(pod, 'metadata', 'deletionTimestamp') !== undefined) reason = field(pod, 'status', 'reason') === 'NodeLost' ? 'Unknown' : 'Terminating';
  const restartsText = lastRestart === undefined ? String(restarts) : `${restarts} (${formatAge(new Date(lastRestart).toISOString(), now)} ago)`;
  return { ready, total, status: reason, restarts: restartsText };
}

/** A terminated container's reason, or `Signal:9` / `ExitCode:1`. */
function terminatedReason(terminated: unknown): string {
  const reason = field(terminated, 'reason');
  if (typeof reason === 'string' && reason !== '') return reason;
  const signal = count(field(terminated, 'signal'));
  return signal !== 0 ? `Signal:${signal}` : `ExitCode:${count(field(terminated, 'exitCode'))}`;
}

/** `<none>`, or how many of the pod's readiness gates have a True condition: `1/2`. */
function readinessGates(pod: KubeObject): string {
  const gates = list(field(pod, 'spec', 'readinessGates'));
  if (gates.length === 0) return '<none>';
  const conditions = list(field(pod, 'status', 'conditions'));
  const met = gates.filter((gate) => conditions.some((c) => c['type'] === gate['conditionType'] && c['status'] === 'True')).length;
  return `${met}/${gates.length}`;
}
