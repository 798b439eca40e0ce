import type { KubeObject } from '../store/kubeObject.js';
import { compareResourceVersions } from '../store/compareResourceVersions.js';
import type { WriteRecord } from './writeRecord.js';

/**
 * @internal Whether `object` is a version from before this process's own last write to it (by
 * uid, as `record` has it): the process deleted it (or removed its last finalizer), or got back a
 * newer resourceVersion from a write than `object` carries. `false` when the record knows no write
 * to that uid (within its retention) and when the two resourceVersions cannot be ordered (not
 * integers: a server before Kubernetes 1.35, some aggregated APIs), so that an unknown order never
 * holds work back.
 *
 * @param object an object as read (from a cache, say).
 * @param record this process's writes.
 * @returns `true` when `object` is older than what this process wrote.
 */
export function behindOwnWrite(object: KubeObject, record: WriteRecord): boolean {
  const uid = object.metadata?.uid;
  const written = typeof uid === 'string' ? record.written(uid) : undefined;
  if (written === undefined) return false;
  if (written.deleted) return true;
  const have = object.metadata?.resourceVersion;
  return written.resourceVersion !== undefined && typeof have === 'string' && (compareResourceVersions(have, written.resourceVersion) ?? 0) < 0;
}
