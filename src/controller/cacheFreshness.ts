import { map, type Observable } from 'rxjs';
import { behindOwnWrite } from '../client/behindOwnWrite.js';
import type { WriteRecord } from '../client/writeRecord.js';
import { compareResourceVersions } from '../store/compareResourceVersions.js';
import type { KubeObject } from '../store/kubeObject.js';
import type { Notification } from '../store/notification.js';
import type { Snapshot } from '../store/snapshot.js';
import type { CacheFreshness } from './queue/reconcileConfig.js';
import { refOfCacheKey } from '../store/objectRef.js';
import type { OwnerType } from './toOwnerRefs.js';

/**
 * Read-your-own-writes for one primary informer: a key is fresh when its cache entry is at least
 * as new as what this process last wrote to that object (by uid, see `writeRecord`), is not an
 * object this process deleted, and, when the primary's `type` is known, is the object this process
 * last wrote under that name: an object it created (or deleted and created again) is waited for
 * until the cache holds its uid, unless the cache has moved past that write (the collection's
 * resourceVersion, or a newer object under the name: someone else deleted or replaced it since).
 *
 * resourceVersions compare as integers (KEP-5504). When the written or the cached one is not an
 * integer (a server before 1.35, some aggregated APIs), they cannot be ordered: the key counts as
 * fresh unless the cache still holds an object this process deleted, so runs start at once as
 * without read-your-own-writes.
 *
 * @param primary the informer whose cache the reconciler reads.
 * @param record the process's writes.
 * @param type the primary's `apiVersion` and `kind`, which name its objects in the record; without
 * it, objects the cache does not hold are not waited for.
 * @returns what the work queue consults before it starts a run.
 */
export function cacheFreshness(
  primary: { readonly snapshot: Pick<Snapshot<KubeObject>, 'get' | 'resourceVersion'>; readonly changes$: Observable<Notification<KubeObject>> },
  record: WriteRecord,
  type?: OwnerType,
): CacheFreshness {
  return {
    isFresh(key) {
      const cached = primary.snapshot.get(key);
      if (cached !== undefined && behindOwnWrite(cached, record)) return false;
      const uid = cached?.metadata?.uid;
      if (type === undefined) return true;
      const last = record.writtenAt({ ...type, ...refOfCacheKey(key) });
      if (last === undefined || last.deleted || last.uid === uid) return true;
      // The process last wrote another object under this name than the cache holds (or it holds none).
      const wrote = last.resourceVersion;
      if (wrote === undefined) return true;
      // Unless the cache has moved past that write: someone deleted or replaced the object since.
      const collection = primary.snapshot.resourceVersion;
      if (collection !== '' && (compareResourceVersions(collection, wrote) ?? 1) >= 0) return true;
      const have = cached?.metadata?.resourceVersion;
      return typeof have === 'string' && (compareResourceVersions(have, wrote) ?? 1) > 0;
    },
    changed$: primary.changes$.pipe(map((change) => change.key)),
  };
}
