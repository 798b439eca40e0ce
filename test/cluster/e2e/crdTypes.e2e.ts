/**
 * crd-types against kube-apiserver (issue 42, item 2): Gateway API's CRDs (experimental channel,
 * from its Go module) installed on the real server; the types `crd-types --cluster` writes from the
 * server's copies are the ones it writes from the files; and Gateway API's example manifests — which
 * type-check as the generated kinds (packages/cli/test/crdTypesReal.spec.ts) — are accepted by the
 * server (a dry-run create of each: schema, CEL rules and all).
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { resourceClient } from '../../../src/client/resourceClient.js';
import { KubeApiError } from '../../../src/errors.js';
import type { KubeObject } from '../../../src/store/kubeObject.js';
import { clusterCrds } from '../../../packages/cli/src/crdTypes/clusterCrds.js';
import type { Crd } from '../../../packages/cli/src/crdTypes/crd.js';
import { generateCrdTypes } from '../../../packages/cli/src/crdTypes/generateCrdTypes.js';
import { readCrds } from '../../../packages/cli/src/crdTypes/readCrds.js';
import { goModuleDir, realCrdSources } from '../../../packages/cli/test/goModule.js';
import { kubeConfig, until } from './helpers.js';

const kc = kubeConfig();
const client = resourceClient(kc, { fieldManager: 'crd-types-e2e' });
test.after.always(() => client.close());

type Conditions = { status?: { conditions?: { type: string; status: string }[] } };

/** Creates `object`, or leaves the one already there (a second run against the same cluster). */
async function ensure(object: KubeObject): Promise<void> {
  try {
    await client.create(object);
  } catch (error) {
    // The 409 AlreadyExists, which the client words as a conflict.
    if (!(error instanceof KubeApiError && error.code === 409) && (error as { reason?: unknown }).reason !== 'conflict') throw error;
  }
}

test('Gateway API on kube-apiserver: the same types from the cluster as from the files, and its examples accepted', async (t) => {
  const source = realCrdSources.gatewayExperimental;
  const dir = await goModuleDir(source.module, source.version);
  const crds = await readCrds(source.paths.map((path) => join(dir, path)));
  const started = performance.now();
  for (const crd of crds) await ensure(crd as unknown as KubeObject);
  for (const crd of crds) {
    await until(async () => {
      const current = await client.get<KubeObject & Conditions>({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', name: crd.metadata!.name! });
      return current?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true;
    }, `${crd.metadata?.name} Established`);
  }
  t.log(`${crds.length} CRDs Established in ${Math.round(performance.now() - started)} ms`);

  // What the server keeps of a CRD (defaults filled in, its status) makes the same types.
  const groups = new Set(crds.map((crd) => crd.spec.group));
  const live = (await clusterCrds(kc)).filter((crd: Crd) => groups.has(crd.spec.group));
  t.is(live.length, crds.length);
  t.deepEqual(generateCrdTypes(live), generateCrdTypes(crds));

  const scope = new Map(crds.map((crd) => [`${crd.spec.group} ${crd.spec.names.kind}`, crd.spec.scope]));
  const examples: { file: string; object: KubeObject }[] = [];
  for (const file of (await readdir(join(dir, 'examples'), { recursive: true })).filter((name) => name.endsWith('.yaml')).sort()) {
    for (const document of parseAllDocuments(await readFile(join(dir, 'examples', file), 'utf8'))) {
      const object = document.toJS() as KubeObject | null;
      if (object !== null) examples.push({ file, object });
    }
  }
  const namespaces = new Set(examples.filter((example) => example.object.kind === 'Namespace').map((example) => example.object.metadata?.name));
  for (const name of namespaces) await ensure({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: name! } } as KubeObject);
  const rejected: string[] = [];
  let accepted = 0;
  for (const { file, object } of examples.filter((example) => example.object.kind !== 'Namespace')) {
    const namespaced = scope.get(`${object.apiVersion?.split('/')[0]} ${object.kind}`) === 'Namespaced';
    const placed = namespaced && object.metadata?.namespace === undefined ? { ...object, metadata: { ...object.metadata, namespace: 'default' } } : object;
    // Discovery serves a new CRD's kinds a moment after it is Established: a 404 then is asked again.
    await until(async () => {
      try {
        await client.create(placed, { dryRun: true });
        accepted++;
      } catch (error) {
        if (error instanceof KubeApiError && error.code === 404) return false;
        rejected.push(`${file}: ${object.kind} ${object.metadata?.name}: ${(error as Error).message}`);
      }
      return true;
    }, `${object.kind} ${object.metadata?.name} from ${file}`);
  }
  t.deepEqual(rejected, []);
  t.true(accepted >= 100, `${accepted} example objects accepted`);
  t.log(`${accepted} example objects accepted by kube-apiserver (dry run)`);
});
