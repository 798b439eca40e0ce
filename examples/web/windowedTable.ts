/// <reference lib="dom" />
/**
 * A windowed table over an informer's snapshots: the DOM holds only the rows in view (and a few
 * around them), however many objects the snapshot holds, and it is redrawn at most `perSecond`
 * times a second ({@link coalesceForScreen}), always with the latest snapshot. A tab that follows
 * 30,000 pods keeps about fifty `<tr>`s, not 30,000.
 *
 * ```ts
 * const pods = informer(relay.listWatch({ version: 'v1', plural: 'pods' }));
 * windowedTable(document.querySelector('#pods')!, pods.snapshots$, [(pod) => pod.metadata?.name ?? '']);
 * pods.connect();
 * ```
 */
import { combineLatest, fromEvent, map, startWith, type Observable, type Subscription } from 'rxjs';
import type { KubeObject, Snapshot } from 'rx-informer';
import { coalesceForScreen } from 'rx-informer/web';
import { rowWindow } from './rowWindow.js';

export { rowWindow, type RowWindow } from './rowWindow.js';

/** One column: the text of a cell. */
export type Column<T> = (object: T, key: string) => string;

/**
 * Draws `snapshots$` into `viewport` (a fixed-height element that scrolls) as rows sorted by key,
 * only those in view. Returns the subscription; unsubscribe to stop.
 */
export function windowedTable<T extends KubeObject>(viewport: HTMLElement, snapshots$: Observable<Snapshot<T>>, columns: ReadonlyArray<Column<T>>, options: { rowHeight?: number; perSecond?: number } = {}): Subscription {
  const rowHeight = options.rowHeight ?? 24;
  const spacer = document.createElement('div');
  const table = document.createElement('table');
  table.style.position = 'absolute';
  const body = table.createTBody();
  viewport.style.position = 'relative';
  viewport.style.overflowY = 'auto';
  viewport.replaceChildren(spacer, table);
  // The keys are sorted once per snapshot drawn, not per event.
  const sorted$ = snapshots$.pipe(
    coalesceForScreen({ intervalMs: 1000 / (options.perSecond ?? 10) }),
    map((snapshot) => ({ snapshot, keys: [...snapshot.keys()].sort() })),
  );
  const scroll$ = fromEvent(viewport, 'scroll').pipe(startWith(undefined));
  return combineLatest([sorted$, scroll$]).subscribe(([{ snapshot, keys }]) => {
    const view = rowWindow(keys.length, viewport.scrollTop, viewport.clientHeight, rowHeight);
    spacer.style.height = `${view.height}px`;
    table.style.top = `${view.offset}px`;
    const rows: HTMLTableRowElement[] = [];
    for (let i = view.first; i < view.end; i++) {
      const key = keys[i]!;
      const object = snapshot.get(key) as T;
      const tr = document.createElement('tr');
      tr.style.height = `${rowHeight}px`;
      tr.dataset['key'] = key;
      for (const column of columns) tr.insertCell().textContent = column(object, key);
      rows.push(tr);
    }
    body.replaceChildren(...rows);
    viewport.dataset['size'] = String(snapshot.size);
  });
}
