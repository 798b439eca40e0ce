/**
 * Reading CRDs from files and folders (src/envtest/crds.ts), before anything is started: YAML with
 * several documents, JSON, folders (not their sub-folders), other kinds skipped, missing paths.
 */
import test from 'ava';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnvtestError } from 'rx-informer/envtest';
import { readCrds } from '../../src/envtest/crds.js';

const crd = (plural: string) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.demo.example.com` },
  spec: {
    group: 'demo.example.com',
    names: { plural, singular: plural.slice(0, -1), kind: 'Thing', listKind: 'ThingList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
});

test('files and folders: every CRD document of .yaml/.yml/.json files, other kinds and sub-folders skipped', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-crds-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'bases'));
  mkdirSync(join(dir, 'bases', 'nested'));
  writeFileSync(join(dir, 'bases', 'a.yaml'), `${JSON.stringify(crd('alphas'))}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\n${JSON.stringify(crd('betas'))}\n`);
  writeFileSync(join(dir, 'bases', 'kustomization.yaml'), 'resources: [a.yaml]\n');
  writeFileSync(join(dir, 'bases', 'README.md'), '# not read');
  writeFileSync(join(dir, 'bases', 'nested', 'c.yaml'), JSON.stringify(crd('gammas')));
  writeFileSync(join(dir, 'd.json'), JSON.stringify(crd('deltas')));
  const found = await readCrds([join(dir, 'bases'), join(dir, 'd.json')], true);
  t.deepEqual(found.map((c) => c.spec.names.plural), ['alphas', 'betas', 'deltas']);
  // The Kubernetes extensions survive the read (client-node names them x_kubernetes_…; its API client writes them back as x-kubernetes-…).
  t.is(found[0]!.spec.versions[0]!.schema?.openAPIV3Schema?.x_kubernetes_preserve_unknown_fields, true);
});

test('a missing path fails unless errorIfCrdPathMissing is false; a file that does not parse always fails', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-crds-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const missing = await t.throwsAsync(readCrds([join(dir, 'nope')], true), { instanceOf: EnvtestError });
  t.is(missing?.reason, 'crd-failed');
  t.regex(missing!.message, /CRD path .*nope does not exist/);
  t.deepEqual(await readCrds([join(dir, 'nope')], false), []);
  writeFileSync(join(dir, 'empty.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
  await t.throwsAsync(readCrds([join(dir, 'empty.yaml')], true), { message: /no apiextensions\.k8s\.io\/v1 CustomResourceDefinition in/ });
  writeFileSync(join(dir, 'bad.yaml'), 'kind: [unclosed\n');
  await t.throwsAsync(readCrds([join(dir, 'bad.yaml')], false), { message: /cannot parse .*bad\.yaml/ });
});
