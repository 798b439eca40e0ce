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

/** Where an object is written: its type (`apiVersion` and `kind`, as the server answers them) and name. */
export interface WrittenName {
  /** The written object's `group/version`, as the server answered it (`v1` for the core group). */
  readonly apiVersion: string;
  /** The written object's kind, as the server answered it. */
  readonly kind: string;
  /** The written object's namespace; absent for a cluster-scoped object. */
  readonly namespace?: string;
  /** The written object's `metadata.name`. */
  readonly name: string;
}

/**
 * The writes this process made, by object uid: what read-your-own-writes compares a cache with.
 * Every write of `resourceClient()` (create, replace, patch, edit, apply, status, delete, and the
 * finalizer and createOrUpdate helpers built on them) is noted here, whatever `KubeConfig` or
 * endpoint it went through, because the uid names the object wherever it is read from.
 *
 * One shared record per process ({@link writeRecord}) unless a client is given its own
 * (`resourceClient(kubeConfig, { record })`): a write made anywhere through the clients of a record
 * (inside a reconcile or not) holds the controllers given that record whose caches have not seen it
 * yet. Entries are kept for
 * `retainMs` (10 minutes) and at most `maxEntries` (100,000), oldest dropped first; a cache that
 * is ten minutes behind is not waited for.
 */
export interface WriteRecord {
  /** @internal Notes the answer to a successful write (`verb` as the client names it); dry runs are not noted. */
  noteResponse(verb: string, body: unknown): void;
  /** What this process last wrote to the object with `uid`, if it wrote it within the retention. */
  written(uid: string): WrittenObject | undefined;
  /**
   * The object this process last wrote under a name (a create, or any later write), with its uid,
   * if within the retention: what tells a cache that does not hold that uid yet (an object just
   * created, or deleted and created again) from one that is current.
   */
  writtenAt(name: WrittenName): (WrittenObject & { readonly uid: string }) | undefined;
  /** Forgets everything (tests). */
  clear(): void;
}

/** How long and how many writes {@link writeRecord} keeps. */
export const writeRecordLimits = { retainMs: 600_000, maxEntries: 100_000 } as const;

/**
 * Creates a {@link WriteRecord}, to give to `resourceClient()` and `controller()` (`readYourWrites:
 * { record }`) together; the shared one is {@link writeRecord}.
 *
 * @param now the clock for retention (default `Date.now`).
 */
export function createWriteRecord(now: () => number = Date.now): WriteRecord {
  const byUid = new Map<string, WrittenObject>(); // oldest first
  // The uid last written under each name, and each uid's name (to forget it with the uid).
  const byName = new Map<string, string>();
  const nameOfUid = new Map<string, string>();
  const prune = (time: number): void => {
    for (const [uid, entry] of byUid) {
      if (byUid.size <= writeRecordLimits.maxEntries && entry.at >= time - writeRecordLimits.retainMs) break;
      byUid.delete(uid);
      const name = nameOfUid.get(uid);
      nameOfUid.delete(uid);
      if (name !== undefined && byName.get(name) === uid) byName.delete(name);
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
  const written = (uid: string): WrittenObject | undefined => {
    const entry = byUid.get(uid);
    return entry !== undefined && entry.at >= now() - writeRecordLimits.retainMs ? entry : undefined;
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
      if (typeof object.apiVersion === 'string' && typeof object.kind === 'string' && typeof meta.name === 'string') {
        const name = nameKey({ apiVersion: object.apiVersion, kind: object.kind, namespace: meta.namespace, name: meta.name });
        byName.set(name, meta.uid);
        nameOfUid.set(meta.uid, name);
      }
      const finalizing = meta.deletionTimestamp !== undefined && (meta.finalizers?.length ?? 0) === 0;
      const deleted = verb === 'delete' ? meta.deletionTimestamp === undefined || finalizing : finalizing;
      note(meta.uid, deleted ? { deleted: true, at } : { ...(typeof meta.resourceVersion === 'string' ? { resourceVersion: meta.resourceVersion } : {}), deleted: false, at });
    },
    written,
    writtenAt(name) {
      const uid = byName.get(nameKey(name));
      const entry = uid === undefined ? undefined : written(uid);
      return entry === undefined ? undefined : { ...entry, uid: uid! };
    },
    clear() {
      byUid.clear();
      byName.clear();
      nameOfUid.clear();
    },
  };
}

const nameKey = (n: { apiVersion: string; kind: string; namespace?: string | undefined; name: string }): string => `${n.apiVersion}|${n.kind}|${n.namespace ?? ''}|${n.name}`;

/** The shared {@link WriteRecord}: every `resourceClient()` not given a record of its own notes its writes here, and every controller not given one compares with it. */
export const writeRecord: WriteRecord = createWriteRecord();
