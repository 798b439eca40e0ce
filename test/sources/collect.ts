import type { Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

/** One-line summary of a raw event: `LIST_START`, `PAGE1(a,b)`, `DONE(10)`, `ADDED(c@12)`, `BOOKMARK(13)`. */
export function summarize(e: RawEvent<KubeObject>): string {
  switch (e.type) {
    case 'LIST_START':
      return 'LIST_START';
    case 'LIST_PAGE':
      return `PAGE${e.page}(${e.items.map((i) => i.metadata?.name).join(',')})`;
    case 'LIST_DONE':
      return `DONE(${e.resourceVersion})`;
    case 'BOOKMARK':
      return `BOOKMARK(${e.resourceVersion}${e.initialEventsEnd ? ',end' : ''})`;
    case 'STATUS':
      return `STATUS(${e.status.type})`;
    default:
      return `${e.type}(${e.object.metadata?.name}@${e.object.metadata?.resourceVersion})`;
  }
}

/**
 * Subscribes at the current virtual time, records `"<frame> <summary>"`, unsubscribes at `until`.
 * In-band `STATUS` events are left out (tests read statuses from `onStatus`) unless `statuses`.
 */
export function collect(ts: TestScheduler, source: Observable<RawEvent<KubeObject>>, until: number, statuses = false): string[] {
  const out: string[] = [];
  const sub = source.subscribe({
    next: (e) => (statuses || e.type !== 'STATUS') && out.push(`${ts.now()} ${summarize(e)}`),
    error: (e: Error) => out.push(`${ts.now()} error ${e.name}: ${e.message}`),
    complete: () => out.push(`${ts.now()} complete`),
  });
  ts.schedule(() => sub.unsubscribe(), until);
  return out;
}
