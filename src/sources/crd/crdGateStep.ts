/**
 * The CRD gate as a state machine: which requests an informer of a custom resource makes as its
 * CustomResourceDefinition comes, goes and changes. {@link crdGateStep} is the one transition; the
 * runtime ({@link crdGated}) performs its effects.
 *
 * ```text
 *              crd ready                      crd gone (deleted)
 *   unknown ─────────────► running ──────────────────────────────► waiting ──┐
 *      │                    ▲  │   version not served / not Established      │
 *      │ crd not ready      │  └─────────────────────────────────► waiting   │
 *      └──────────► waiting ┴──────────────────── crd ready ◄────────────────┘
 *   unknown ── the CRD watch is refused (403) ──► ungated (runs as if there were no gate)
 * ```
 */
import type { CrdStatus } from '../reflector/listWatchStatus.js';
import type { CrdAvailability } from './crdAvailability.js';

/** Where the gate is. `waiting` remembers what it last told (the CRD's state and served versions), so that a repeat tells nothing. */
export type CrdGateState =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'waiting'; readonly told: string }
  | { readonly kind: 'running'; readonly crd: string }
  | { readonly kind: 'ungated' };

/** What moves it: the CRD as the shared CRD watch last saw it, or that watch being refused. */
export type CrdGateInput = { readonly type: 'crd'; readonly availability: CrdAvailability } | { readonly type: 'crdWatchUnavailable' };

/**
 * What the runtime does, in order: tell a status; start the List+Watch (under the CRD's `plural`,
 * or as asked when `undefined`); stop it; empty the cache (a relist of nothing: each cached object
 * is delivered as a delete).
 */
export type CrdGateEffect =
  | { readonly type: 'status'; readonly status: CrdStatus }
  | { readonly type: 'start'; readonly plural: string | undefined }
  | { readonly type: 'stop' }
  | { readonly type: 'empty' };

/** The gate's target: how to name its CRD before it is found, and the version it reads. */
export interface CrdGateTarget {
  readonly crd: string;
  readonly version: string;
}

/** The initial state: the CRD watch has not synced. */
export const initialCrdGate: CrdGateState = { kind: 'unknown' };

/** One transition: the next state and the effects to perform. */
export function crdGateStep(state: CrdGateState, input: CrdGateInput, target: CrdGateTarget): { state: CrdGateState; effects: readonly CrdGateEffect[] } {
  if (state.kind === 'ungated') return { state, effects: [] };
  if (input.type === 'crdWatchUnavailable') {
    // Only before the CRD watch has told anything: after that the gate keeps what it knows.
    return state.kind === 'unknown' ? { state: { kind: 'ungated' }, effects: [{ type: 'start', plural: undefined }] } : { state, effects: [] };
  }
  const { availability } = input;
  const status = crdStatus(availability, state.kind === 'running' ? { ...target, crd: state.crd } : target, state.kind === 'running');
  const told = `${availability.state} ${availability.served.join(',')}`;
  if (availability.state === 'ready') {
    if (state.kind === 'running') return { state, effects: [] };
    return { state: { kind: 'running', crd: availability.name }, effects: [{ type: 'status', status }, { type: 'start', plural: availability.plural }] };
  }
  if (state.kind === 'running') {
    // Being deleted: its objects' deletions still come through the watch; keep it until the CRD is gone.
    if (availability.state === 'terminating') return { state, effects: [] };
    const stop: CrdGateEffect[] = availability.state === 'notFound' ? [{ type: 'stop' }, { type: 'empty' }] : [{ type: 'stop' }];
    return { state: { kind: 'waiting', told }, effects: [...stop, { type: 'status', status }] };
  }
  if (state.kind === 'waiting' && state.told === told) return { state, effects: [] };
  return { state: { kind: 'waiting', told }, effects: [{ type: 'status', status }] };
}

/** The status that tells `availability`; a CRD not found by a gate that was `running` was removed. */
function crdStatus(availability: CrdAvailability, target: CrdGateTarget, wasRunning: boolean): CrdStatus {
  const crd = availability.name ?? target.crd;
  const base = { crd, version: target.version, servedVersions: availability.served };
  const named = `the CustomResourceDefinition ${crd}`;
  switch (availability.state) {
    case 'ready':
      return { type: 'CRD_ESTABLISHED', ...base, message: `${named} serves ${target.version}: listing` };
    case 'notFound':
      if (wasRunning) return { type: 'CRD_REMOVED', ...base, message: `${named} was deleted, with its objects: waiting for it to come back` };
      return { type: 'CRD_MISSING', reason: 'notFound', ...base, message: `no CustomResourceDefinition ${crd}: waiting for it` };
    case 'notEstablished':
      return { type: 'CRD_MISSING', reason: 'notEstablished', ...base, message: `${named} is not Established yet: waiting` };
    case 'terminating':
      return { type: 'CRD_MISSING', reason: 'terminating', ...base, message: `${named} is being deleted: waiting for it to come back` };
    case 'versionNotServed':
      return {
        type: 'CRD_VERSION_NOT_SERVED',
        ...base,
        message: `${named} does not serve ${target.version} (it serves ${availability.served.join(', ') || 'no version'}): waiting; the cache is kept as it was`,
      };
  }
}
