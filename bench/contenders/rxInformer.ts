/**
 * Contender: rx-informer, `listWatch` + `informer()` with default options; with `--strip`, the
 * source's `transform` is `stripManagedFields`; with `--streaming`, `streamingList: true`; with `--paged`, `listSemantic: 'mostRecent'`; with `--fetch`, `fetchListWatch` (Node's own `fetch`, undici) against the kubeconfig's server instead of `listWatch`; with `--whole`, the same source as `listWatch` with each LIST page joined whole (`wholeListResponse`) before the reflector sees it, as the library handed a page to the store before it emitted large pages in parts. Watches `changes$` (each notification is delivered
 * once the snapshot holding it is current), so "seen" means "visible in a snapshot".
 * The library is the compiled one named by BENCH_RX_LIB (the driver builds src/, or for the `rx-exp`
 * contenders a patched copy of it, so a proposed fix is measured against the original in the same run).
 * With BENCH_RX_METRICS=1, an `informerMetrics()` collector is wired in (as a factory does) and
 * each measurement also reports its `eventLatency` histogram's p50/p95/p99 over that measurement
 * (socket arrival to delivery), next to the harness's write-to-callback figures. Every measurement
 * reports `watchesReopened`: the watches the source opened again during it (0 when its watch held).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { pathToFileURL } from 'node:url';
import { tap } from 'rxjs';
import type { KubeObject, LatencyHistogram, ListWatchConfig } from 'rx-informer';
import { harness } from './harness.js';

// The compiled library the driver built (BENCH_RX_LIB: its index.js; bench/core/library.ts).
const { fetchListWatch, httpListerWatcher, informer, informerMetrics, listWatch, reflector, stripManagedFields } = (await import(pathToFileURL(process.env.BENCH_RX_LIB!).href)) as typeof import('rx-informer');
// Internal to the library: beside its index.js in the compiled output.
const { wholeListResponse } = (await import(new URL('sources/wholeListResponse.js', pathToFileURL(process.env.BENCH_RX_LIB!)).href)) as typeof import('../../src/sources/wholeListResponse.js');

const strip = process.argv.includes('--strip');
const streaming = process.argv.includes('--streaming');
const paged = process.argv.includes('--paged');
const viaFetch = process.argv.includes('--fetch');
const whole = process.argv.includes('--whole');
const kubeConfig = new KubeConfig();
kubeConfig.loadFromFile(process.env.BENCH_KUBECONFIG!);
// (A copy of src/ from before the histograms has no eventLatency: it runs without instruments.)
const collector = process.env.BENCH_RX_METRICS === '1' ? informerMetrics() : undefined;
const metrics = collector && 'eventLatency' in collector.read() ? collector : undefined;
let before: LatencyHistogram | undefined;
// Watches the source opened (its WATCHING statuses). Over a measurement, one opened after the first
// means its watch ended and was opened again, so a watcher the apiserver force-closed then can be
// told to be rx's. The first may itself come during a measurement (a run whose one WATCH request was
// reported opened in the burst), so it is never counted as opened again.
let watches = 0;
let watchesAtArming = 0;
const h = harness({
  armed: () => {
    watchesAtArming = watches;
    if (metrics) before = metrics.read().eventLatency;
  },
  measured: () => ({ watchesReopened: Math.max(0, watches - Math.max(1, watchesAtArming)), ...(metrics ? histogramSince(before!, metrics.read().eventLatency) : {}) }),
});

h.start();
const config: ListWatchConfig<KubeObject> = {
  ...(strip ? { transform: stripManagedFields } : {}),
  ...(streaming ? { streamingList: true } : {}),
  ...(paged ? { listSemantic: 'mostRecent' as const } : {}),
  onStatus: (s) => {
    if (s.type === 'WATCHING') watches++;
    if (s.type === 'ERROR') console.error('[rx-informer]', s.error.message);
  },
};
const resource = { version: 'v1', plural: 'configmaps' };
const wholePages = (): ReturnType<typeof listWatch<KubeObject>> => {
  const inner = httpListerWatcher<KubeObject>(kubeConfig, resource, config);
  return reflector({ ...inner, list: (request) => inner.list(request).pipe(wholeListResponse()) }, config);
};
const source = viaFetch ? fetchListWatch<KubeObject>({ baseUrl: kubeConfig.getCurrentCluster()!.server }, resource, config) : whole ? wholePages() : listWatch<KubeObject>(kubeConfig, resource, config);
const cms = informer<KubeObject>(metrics ? source.pipe(tap((event) => metrics.onEvent(event))) : source, metrics ? { onUpdate: metrics.onUpdate } : {});
cms.changes$.subscribe((change) => {
  if (change.type === 'update') h.seen(change.object as never);
});
const snapshot = await cms.whenSynced();
h.synced(snapshot.size);

/** p50/p95/p99 (ms) of the samples counted between two readings of a histogram, interpolated within buckets as histogram_quantile does. */
function histogramSince(a: LatencyHistogram, b: LatencyHistogram): Record<string, number | undefined> {
  const counts = b.buckets.map((bucket, i) => bucket.count - a.buckets[i]!.count);
  const count = b.count - a.count;
  const quantile = (q: number): number | undefined => {
    if (count === 0) return undefined;
    const rank = q * count;
    let lower = 0;
    let below = 0;
    for (let i = 0; i < counts.length; i++) {
      const le = b.buckets[i]!.le;
      if (counts[i]! >= rank) {
        if (le === Infinity) return lower * 1000;
        const inBucket = counts[i]! - below;
        return (inBucket === 0 ? le : lower + (le - lower) * ((rank - below) / inBucket)) * 1000;
      }
      lower = le;
      below = counts[i]!;
    }
    return lower * 1000;
  };
  return { count, meanMs: count ? ((b.sum - a.sum) / count) * 1000 : undefined, p50Ms: quantile(0.5), p95Ms: quantile(0.95), p99Ms: quantile(0.99) };
}
