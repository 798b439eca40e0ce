import type { KubeObject } from '../store/kubeObject.js';
import { compareResourceVersions } from '../store/compareResourceVersions.js';

/** What this process last wrote to one object (by uid). */
export interface WrittenObject {
  /** The newest resourceVersion a write of this process got back; absent after a delete. */
  readonly resourceVersion?: string;
  /** The process deleted it (or finalized it: removed its last finalizer while it was being deleted). */
  readonly deleted: boolean;
  /** When it was recorded (`Date.now()`). */
  readonly at: number;
}

/**
 * The writes this process made, by object uid: what read-your-own-writes compares a cache with.
 * Every write of `resourceClient()` (create, replace, patch, edit, apply, status, delete, and the
 * finalizer and createOrUpdate helpers built on them) is noted here, whatever `KubeConfig` or
 * endpoint it went through, because the uid names the object wherever it is read from.
 *
 * One record per process ({@link writeRecord}): a write made anywhere in the process (inside a
 * reconcile or not) holds the controllers whose caches have not seen it yet. Entries are kept for
 * `retainMs` (10 minutes) and at most `maxEntries` (100,000), oldest dropped first; a cache that
 * is ten minutes behind is not waited for.
 */
export interface WriteRecord {
  /** @internal Notes the answer to a successful write (`verb` as the client names it); dry runs are not noted. */
  noteResponse(verb: string, body: unknown): void;
  /** What this process last wrote to the object with `uid`, if it wrote it within the retention. */
  written(uid: string): WrittenObject | undefined;
  /** Forgets everything (tests). */
  clear(): void;
}

/** How long and how many writes {@link writeRecord} keeps. */
export const writeRecordLimits = { retainMs: 600_000, maxEntries: 100_000 } as const;

/**
 * Creates a {@link WriteRecord}. The process-wide one is {@link writeRecord}; a test may make its own.
 *
 * @param now the clock for retention (default `Date.now`).
 */
export function createWriteRecord(now: () => number = Date.now): WriteRecord {
  const byUid = new Map<string, WrittenObject>(); // oldest first
  const prune = (time: number): void => {
    for (const [uid, entry] of byUid) {
      if (byUid.size <= writeRecordLimits.maxEntries && entry.at >= time - writeRecordLimits.retainMs) break;
      byUid.delete(uid);
    }
  };
  const note = (uid: string, entry: WrittenObject): void => {
    const before = byUid.get(uid);
    // Two writes answered out of order: keep the newer resourceVersion.
    const older = before?.resourceVersion !== undefined && entry.resourceVersion !== undefined && (compareResourceVersions(entry.resourceVersion, before.resourceVersion) ?? 0) < 0;
    byUid.delete(uid);
    byUid.set(uid, older && !entry.deleted ? { ...before!, at: entry.at } : entry);
    prune(entry.at);
  };
  return {
    noteResponse(verb, body) {
      if (body === null || typeof body !== 'object') return;
      const object = body as KubeObject & { details?: { uid?: unknown } };
      const at = now();
      if (object.kind === 'Status') {
        // A delete answered with a Status: the object is gone.
        if (verb === 'delete' && typeof object.details?.uid === 'string') note(object.details.uid, { deleted: true, at });
        return;
      }
      const meta = object.metadata;
      if (typeof meta?.uid !== 'string') return;
      const finalizing = meta.deletionTimestamp !== undefined && (meta.finalizers?.length ?? 0) === 0;
      const deleted = verb === 'delete' ? meta.deletionTimestamp === undefined || finalizing : finalizing;
      note(meta.uid, deleted ? { deleted: true, at } : { ...(typeof meta.resourceVersion === 'string' ? { resourceVersion: meta.resourceVersion } : {}), deleted: false, at });
    },
    written(uid) {
      const entry = byUid.get(uid);
      return entry !== undefined && entry.at >= now() - writeRecordLimits.retainMs ? entry : undefined;
    },
    clear() {
      byUid.clear();
    },
  };
}

/** The process's {@link WriteRecord}: every `resourceClient()` notes its writes here. */
export const writeRecord: WriteRecord = createWriteRecord();
