/// <reference lib="dom" />
/**
 * The page of the web demo: live pods in a table, from an informer running in the browser over
 * `fetch`. The whole pipeline is RxJS in the page: the informer's snapshots, its changes folded
 * into "what changed lately", its status, rendered at most every 100 ms.
 *
 * The API server is the page's `?api=` parameter (the demo's in-process server, or a
 * `kubectl proxy`), else the page's own origin (`kubectl proxy --www=…` serves both).
 */
import { auditTime, combineLatest, filter, map, scan, startWith } from 'rxjs';
import { fetchListWatch, informer, isTombstone, type KubeObject } from 'rx-informer';

type Pod = KubeObject & { readonly spec?: { readonly nodeName?: string }; readonly status?: { readonly phase?: string } };
type Change = 'added' | 'updated' | 'deleted';
interface Recent {
  readonly change: Change;
  readonly at: number;
  readonly pod: Pod;
}

const api = new URL(location.href).searchParams.get('api') ?? location.origin;
const maxRows = 40;
const recentRows = 12;

const pods = informer<Pod>(fetchListWatch<Pod>({ baseUrl: api }, { version: 'v1', plural: 'pods' }));

/** A pod known only by its key (a tombstone without its last state). */
const named = (key: string): Pod => ({ metadata: { namespace: key.split('/')[0]!, name: key.split('/')[1]! } });

// The newest changes, newest first, as the CLI's live view keeps them (deleted pods stay, struck through).
const recent$ = pods.changes$.pipe(
  filter((change) => !(change.type === 'add' && change.isInInitialList) && !(change.type === 'update' && change.sync)),
  scan((recent: readonly [string, Recent][], change) => {
    const at = Date.now();
    const entry: [string, Recent] =
      change.type === 'delete'
        ? [change.key, { change: 'deleted', at, pod: isTombstone(change.object) ? (change.object.object ?? named(change.key)) : change.object }]
        : [change.key, { change: change.type === 'add' ? 'added' : 'updated', at, pod: change.object }];
    return [entry, ...recent.filter(([key]) => key !== change.key)].slice(0, recentRows);
  }, []),
  startWith([] as readonly [string, Recent][]),
);

combineLatest([pods.snapshots$, recent$, pods.status$.pipe(startWith(undefined))])
  .pipe(
    auditTime(100),
    map(([snapshot, recent, status]) => ({ snapshot, recent, status })),
  )
  .subscribe(({ snapshot, recent, status }) => {
    const changed = new Set(recent.map(([key]) => key));
    const rows: Array<[string, Pod, Change | undefined]> = recent.map(([key, r]) => [key, r.change === 'deleted' ? r.pod : (snapshot.get(key) ?? r.pod), r.change]);
    for (const pod of snapshot.list()) {
      if (rows.length >= maxRows) break;
      const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
      if (!changed.has(key)) rows.push([key, pod, undefined]);
    }
    render(rows, snapshot.size, snapshot.synced, status === undefined ? 'STARTING' : status.type);
  });

pods.connect();

const age = (pod: Pod): string => {
  const created = Date.parse(String(pod.metadata?.creationTimestamp ?? ''));
  if (Number.isNaN(created)) return '';
  const s = Math.max(0, Math.round((Date.now() - created) / 1000));
  return s < 120 ? `${s}s` : s < 7200 ? `${Math.round(s / 60)}m` : `${Math.round(s / 3600)}h`;
};
const marks: Record<Change, string> = { added: '+', updated: '~', deleted: '-' };

function render(rows: ReadonlyArray<[string, Pod, Change | undefined]>, size: number, synced: boolean, state: string): void {
  const body = document.querySelector('tbody')!;
  body.replaceChildren(
    ...rows.map(([key, pod, change]) => {
      const tr = document.createElement('tr');
      tr.dataset['key'] = key;
      if (change) tr.dataset['change'] = change;
      for (const text of [change ? marks[change] : '', pod.metadata?.namespace ?? '', pod.metadata?.name ?? '', pod.status?.phase ?? '', pod.spec?.nodeName ?? '', age(pod)]) {
        const td = document.createElement('td');
        td.textContent = text;
        tr.append(td);
      }
      return tr;
    }),
  );
  document.body.dataset['synced'] = String(synced);
  document.body.dataset['size'] = String(size);
  document.querySelector('#status')!.textContent = `${state.toLowerCase()} · ${size} pods${synced ? '' : ' · syncing'} · ${api}`;
}
