/**
 * The workload server of `npm run bench`, run in its own process (forked with IPC by bench/loopback/run.ts):
 * the test API server from rx-informer/testing, seeded with N ConfigMaps of ~1.5 KB each
 * (labels, annotations, managedFields), firing MODIFIED events on command. Each write carries its
 * sequence number and its wall-clock time in annotations, so contenders can tell when the last one
 * arrived and how long each took.
 *
 * Writes go straight onto the open watches by default (a lean loader): the MODIFIED lines are
 * built before the clock starts (the object as stored, its two annotations changed, the next
 * resourceVersion) and only the timestamp is filled in at write time. Going through the store
 * (`BENCH_WRITES=store`: merge patch, stamp, change log, serialize per watch) costs the server
 * ~80 µs per write on this machine, which would cap every contender at the server's rate. The
 * store is not updated by direct writes; each contender is a fresh process that lists first.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer, type JsonObject } from 'rx-informer/test-server';
import { nowMs, SEQ_ANNOTATION, TIME_ANNOTATION } from '../core/protocol.js';
import { benchObject, namespaceOf, nameOf } from '../core/workload.js';

type Command = { type: 'seed'; n: number } | { type: 'fire'; count: number; rate: number } | { type: 'idle' } | { type: 'exit' };

const server = await createTestApiServer({ changeLogSize: 50_000 });
const dir = mkdtempSync(join(tmpdir(), 'rx-informer-bench-'));
const kubeconfig = join(dir, 'kubeconfig');
await server.writeKubeConfig(kubeconfig);
let n = 0;
let seq = 0;
let cursor = 0;
const send = (message: object): void => void process.send!(message);

const viaStore = process.env.BENCH_WRITES === 'store';
/** The current JSON of each object the loader has modified directly. */
const current = new Map<number, JsonObject>();
let directRV = 0;

/** The next direct MODIFIED line, as the text before and after its timestamp. */
function prepare(): readonly [string, string] {
  const i = cursor;
  cursor = (cursor + 1) % n;
  seq++;
  const object = current.get(i) ?? structuredClone(server.get('configmaps', namespaceOf(i), nameOf(i))!);
  current.set(i, object);
  directRV = Math.max(directRV, Number(server.resourceVersion)) + 1;
  const meta = object.metadata as { resourceVersion?: string; annotations?: Record<string, string> };
  meta.resourceVersion = String(directRV);
  meta.annotations = { ...meta.annotations, [SEQ_ANNOTATION]: String(seq), [TIME_ANNOTATION]: '@T@' };
  const [before, after] = `{"type":"MODIFIED","object":${JSON.stringify(object)}}\n`.split('@T@') as [string, string];
  return [before, after];
}

function write(): void {
  const i = cursor;
  cursor = (cursor + 1) % n;
  seq++;
  server.patch('configmaps', namespaceOf(i), nameOf(i), {
    metadata: { annotations: { [SEQ_ANNOTATION]: String(seq), [TIME_ANNOTATION]: nowMs().toFixed(3) } },
  } as JsonObject);
}

/** Back-to-back: as fast as the server writes, yielding to I/O every `slice` writes. */
async function fireBackToBack(count: number, lines: (readonly [string, string])[] | undefined): Promise<void> {
  const slice = 250;
  for (let done = 0; done < count; ) {
    const end = Math.min(count, done + slice);
    for (; done < end; done++) emit(lines, done);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** At a fixed rate: every millisecond tick writes the events that are due by then. */
function emit(lines: (readonly [string, string])[] | undefined, k: number): void {
  if (!lines) return write();
  const [before, after] = lines[k]!;
  server.emitMalformedLine(before + nowMs().toFixed(3) + after, 'configmaps');
}

function fireAtRate(count: number, rate: number, lines: (readonly [string, string])[] | undefined): Promise<void> {
  return new Promise((resolve) => {
    const start = nowMs();
    let done = 0;
    const tick = (): void => {
      const due = Math.min(count, Math.floor(((nowMs() - start) * rate) / 1000) + 1);
      for (; done < due; done++) emit(lines, done);
      if (done >= count) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
}

/**
 * The server caches each object's JSON the first time it is served; list everything once, paged
 * and unpaged, so the first contender does not pay for the server's serialization (and its JIT).
 */
async function warmUp(): Promise<void> {
  await (await fetch(`${server.url}/api/v1/configmaps`)).arrayBuffer();
  let page = (await (await fetch(`${server.url}/api/v1/configmaps?limit=500&resourceVersion=0`)).json()) as { metadata: { continue?: string } };
  while (page.metadata.continue) {
    page = (await (await fetch(`${server.url}/api/v1/configmaps?limit=500&continue=${encodeURIComponent(page.metadata.continue)}`)).json()) as typeof page;
  }
}

process.on('message', async (command: Command) => {
  switch (command.type) {
    case 'seed': {
      n = command.n;
      const objects: JsonObject[] = [];
      for (let i = 0; i < n; i++) objects.push(benchObject(i) as JsonObject);
      server.seed('configmaps', objects);
      await warmUp();
      send({ type: 'ready', kubeconfig, url: server.url, bytesPerObject: JSON.stringify(server.get('configmaps', namespaceOf(0), nameOf(0))).length });
      return;
    }
    case 'idle': {
      // Until the last contender's watch is gone, so the next 'fire' waits for the new one's.
      const until = Date.now() + 10_000;
      while (server.openWatchCount > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 5));
      send({ type: 'idle', openWatches: server.openWatchCount });
      return;
    }
    case 'fire': {
      // Direct writes reach only open watches (no change log to replay), and a contender may say
      // "synced" before its watch request is answered: wait for the watch.
      await server.waitForWatches(1, 30_000);
      const firstSeq = seq + 1;
      const lines = viaStore ? undefined : Array.from({ length: command.count }, prepare);
      const first = nowMs();
      await (command.rate > 0 ? fireAtRate(command.count, command.rate, lines) : fireBackToBack(command.count, lines));
      send({ type: 'fired', firstSeq, lastSeq: seq, first, last: nowMs() });
      return;
    }
    case 'exit':
      await server.close();
      process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'started' });
