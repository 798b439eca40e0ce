/**
 * `node --import=tsx bench/probes/crdResume.ts`: how long a factory informer of a custom resource takes to
 * list and watch again after its CRD is established, on the in-process test server. BENCH_ROUNDS
 * (10) cycles of: delete the CRD (with its 100 objects), create it again; the time from the
 * Established condition being written (the test server writes it a turn after the create) to the
 * informer's WATCHING status. Prints the median and the spread. (`test/cluster/e2e/crdLifecycle.e2e.ts`
 * prints the same on the real apiserver.)
 */
import { filter, firstValueFrom } from 'rxjs';
import { createTestApiServer } from '../../src/testServer/index.js';
import { customResourceDefinitionOf } from '../../src/testServer/customResourceDefinition.js';
import { loadLibrary } from '../core/library.js';

// The library under test, compiled; the test API server is the workload.
const { informerFactory } = (await loadLibrary()).main;

const crds = 'customresourcedefinitions.apiextensions.k8s.io';
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
// The CRD as a user writes one: the test server's own, without the status the API server sets.
const { status: _status, ...crd } = customResourceDefinitionOf({ group: 'example.com', version: 'v1', plural: 'gadgets', kind: 'Gadget', namespaced: true });

const server = await createTestApiServer();
const factory = informerFactory(server.kubeConfig);
const gadgets = factory.informer({ group: 'example.com', version: 'v1', plural: 'gadgets', namespace: 'demo' });
const times: number[] = [];
for (let round = 0; round <= rounds; round++) {
  server.create(crds, crd);
  let establishedAt = 0;
  // The Established write is the CRD's second version: time it as the server stores it.
  const established = new Promise<void>((resolve) => {
    const poll = (): void => {
      const current = server.get(crds, undefined, 'gadgets.example.com') as { status?: unknown } | undefined;
      if (current?.status !== undefined) {
        establishedAt = performance.now();
        resolve();
      } else setImmediate(poll);
    };
    poll();
  });
  const watching = firstValueFrom(gadgets.status$.pipe(filter((s) => s.type === 'WATCHING')));
  await established;
  await watching;
  if (round > 0) times.push(performance.now() - establishedAt); // round 0 warms up
  for (let i = 0; i < 100; i++) server.create('gadgets.example.com', { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: `g-${i}`, namespace: 'demo' } });
  const removed = firstValueFrom(gadgets.status$.pipe(filter((s) => s.type === 'CRD_REMOVED')));
  server.delete(crds, undefined, 'gadgets.example.com');
  await removed;
}
times.sort((a, b) => a - b);
console.log(`in-process resume after Established (${rounds} rounds): median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms, min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)}`);
factory.dispose();
await server.close();
