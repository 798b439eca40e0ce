import { map, type Observable } from 'rxjs';
import type { WriteRecord } from '../client/writeRecord.js';
import { compareResourceVersions } from '../store/compareResourceVersions.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import type { Snapshot } from '../store/snapshot.js';
import type { CacheFreshness } from './reconcileConfig.js';

/**
 * Read-your-own-writes for one primary informer: a key is fresh when its cache entry is at least
 * as new as what this process last wrote to that object (by uid, see `writeRecord`), is not an
 * object this process deleted. A key the cache does not hold is fresh: an object this process
 * created is not waited for until the cache lists it (a name alone cannot tell it from one deleted
 * by someone else since).
 *
 * resourceVersions compare as integers (KEP-5504). When the written or the cached one is not an
 * integer (a server before 1.35, some aggregated APIs), they cannot be ordered: the key counts as
 * fresh unless the cache still holds an object this process deleted, so runs start at once as
 * without read-your-own-writes.
 *
 * @param primary the informer whose cache the reconciler reads.
 * @param record the process's writes.
 * @returns what the work queue consults before it starts a run.
 */
export function cacheFreshness(
  primary: { readonly snapshot: Snapshot<KubeObject>; readonly changes$: Observable<Notification<KubeObject>> },
  record: WriteRecord,
): CacheFreshness {
  return {
    isFresh(key) {
      const cached = primary.snapshot.get(key);
      const uid = cached?.metadata?.uid;
      const written = typeof uid === 'string' ? record.written(uid) : undefined;
      if (written === undefined) return true;
      if (written.deleted) return false;
      const have = cached?.metadata?.resourceVersion;
      if (written.resourceVersion === undefined || typeof have !== 'string') return true;
      return (compareResourceVersions(have, written.resourceVersion) ?? 0) >= 0;
    },
    changed$: primary.changes$.pipe(map((change) => change.key)),
  };
}
