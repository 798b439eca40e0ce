import type { KubeObject, ListWatchStatus, Notification, Snapshot } from 'rx-informer';
import type { Column } from './column.js';
import type { DiscoveredResource } from './discoverResource.js';

/** What a watch shows once its resource is known. */
export interface ResolvedWatch {
  readonly resource: DiscoveredResource;
  /** Every column of the table, NAMESPACE and NAME included, wide ones only with `-o wide`. */
  readonly columns: readonly Column[];
  /** `rx-informer watch pods · all namespaces · <context> @ <server>`. */
  readonly title: string;
  /** The one namespace watched; absent for all namespaces or a cluster-scoped resource. */
  readonly namespace?: string;
}

/**
 * Where `rx-informer watch` shows what happens: a live terminal screen, rows on a pipe, or one
 * object at a time. The run feeds it in order; the shared {@link WatchState} has already been
 * updated when a method is called.
 */
export interface WatchOutput {
  /** How often {@link WatchOutput.tick} is wanted, in ms. */
  readonly tickMs: number;
  /** Discovery could not connect; it retries after `delayMs`. */
  unreachable(message: string, delayMs: number): void;
  /** The resource is known and the watch starts. */
  resolved(watch: ResolvedWatch): void;
  status(status: ListWatchStatus): void;
  /** One applied batch: the snapshot after it and its notifications. */
  update(snapshot: Snapshot<KubeObject>, changes: readonly Notification<KubeObject>[]): void;
  /** The first list has been applied. */
  synced(snapshot: Snapshot<KubeObject>): void;
  /** A problem the watch survived (a bad object, a failing index function, a CRD it could not read). */
  warning(message: string): void;
  tick(snapshot: Snapshot<KubeObject>): void;
  /** The end: restore the terminal; on a clean stop (`summary`), leave a short summary. */
  close(summary: { readonly snapshot: Snapshot<KubeObject> } | undefined): void;
}
