/**
 * `coordination.k8s.io/v1` Leases as the elector reads and writes them, and the pure functions that
 * build the records it writes. Times in the record are written for people and other clients to
 * read; the elector itself never compares them with its own clock (see {@link leaderElection}).
 */
import { microTime } from './microTime.js';
import type { KubeObject, ObjectMeta } from '../store/kubeObject.js';

/** Where a Lease lives. */
export interface LeaseRef {
  /** The Lease's namespace. */
  readonly namespace: string;
  /** The Lease's `metadata.name`, shared by every candidate of one election. */
  readonly name: string;
}

/** The `spec` of a `coordination.k8s.io/v1` Lease (the fields leader election uses). */
export interface LeaseSpec {
  /** Who holds the lease; empty or absent when nobody does (released). */
  readonly holderIdentity?: string;
  /** How long, from the last observed change, the holder may be trusted. */
  readonly leaseDurationSeconds?: number;
  /** When the current holder acquired it (RFC 3339 with microseconds). */
  readonly acquireTime?: string;
  /** When the holder last renewed it. */
  readonly renewTime?: string;
  /** How many times the holder has changed: a term number. */
  readonly leaseTransitions?: number;
  readonly [field: string]: unknown;
}

/** A `coordination.k8s.io/v1` Lease as JSON. */
export interface Lease extends KubeObject {
  /** The Lease's metadata; its `resourceVersion` guards each write of the elector. */
  readonly metadata?: ObjectMeta;
  /** Who holds the lease, since when, for how long, and how many times it changed hands. */
  readonly spec?: LeaseSpec;
}

/** The Lease's `apiVersion` and `kind`. */
export const leaseType = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease' } as const;

/** The holder named by a lease, `undefined` when it names nobody. */
export function holderOf(lease: Lease | undefined): string | undefined {
  const holder = lease?.spec?.holderIdentity;
  return typeof holder === 'string' && holder !== '' ? holder : undefined;
}

/** How long a lease's holder may be trusted after its record was seen to change, in ms. */
export function durationMsOf(lease: Lease | undefined): number {
  const seconds = lease?.spec?.leaseDurationSeconds;
  return typeof seconds === 'number' && seconds > 0 ? seconds * 1000 : 0;
}

/** `leaseTransitions`, 0 when absent. */
export function transitionsOf(lease: Lease | undefined): number {
  const transitions = lease?.spec?.leaseTransitions;
  return typeof transitions === 'number' && transitions >= 0 ? transitions : 0;
}

/**
 * What identifies one version of the record: a change of any of these is a sign of life of its
 * holder (client-go compares the raw record the same way). Metadata changes (labels, managed
 * fields) are not.
 */
export function recordKeyOf(lease: Lease | undefined): string {
  const spec = lease?.spec;
  if (spec === undefined) return '';
  return JSON.stringify([spec.holderIdentity ?? '', spec.leaseDurationSeconds ?? 0, spec.acquireTime ?? '', spec.renewTime ?? '', spec.leaseTransitions ?? 0]);
}

/** What a write of the record needs besides the lease it replaces. */
export interface RecordWrite {
  readonly identity: string;
  readonly leaseDurationSeconds: number;
  /** Epoch ms for the record's times. */
  readonly now: number;
}

/** A new Lease held by `identity`, for a create. */
export function newLease(ref: LeaseRef, labels: Readonly<Record<string, string>> | undefined, write: RecordWrite): Lease {
  const time = microTime(write.now);
  return {
    ...leaseType,
    metadata: { name: ref.name, namespace: ref.namespace, ...(labels && Object.keys(labels).length > 0 ? { labels } : {}) },
    spec: { holderIdentity: write.identity, leaseDurationSeconds: write.leaseDurationSeconds, acquireTime: time, renewTime: time, leaseTransitions: 0 },
  };
}

/**
 * `lease` held by `identity` from now on: a renewal when it holds it already (acquire time and
 * transitions kept), a takeover otherwise (transitions + 1, acquired now). The metadata, with its
 * resourceVersion, is kept, so a PUT of the result fails with 409 if anyone wrote in between.
 */
export function heldLease(lease: Lease, write: RecordWrite): Lease {
  const time = microTime(write.now);
  const renewing = holderOf(lease) === write.identity;
  return {
    ...lease,
    spec: {
      ...lease.spec,
      holderIdentity: write.identity,
      leaseDurationSeconds: write.leaseDurationSeconds,
      acquireTime: renewing && lease.spec?.acquireTime ? lease.spec.acquireTime : time,
      renewTime: time,
      leaseTransitions: renewing ? transitionsOf(lease) : transitionsOf(lease) + 1,
    },
  };
}

/**
 * `lease` given up: no holder, a 1 s duration, transitions kept (client-go's release), so a
 * contender can take it at its next try instead of waiting for it to expire.
 */
export function releasedLease(lease: Lease, now: number): Lease {
  const time = microTime(now);
  return { ...lease, spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, acquireTime: time, renewTime: time, leaseTransitions: transitionsOf(lease) } };
}
