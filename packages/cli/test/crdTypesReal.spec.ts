/*
 * crd-types on real CRDs, taken from the Go modules that ship them (goModule.ts fetches them through
 * the Go module proxy): Gateway API (standard and experimental channels), Cluster API's core and
 * Istio's. The types compile with 0 errors under the strictest options (skipLibCheck off), and every
 * field of every served version's schema is in the kind's type (a walk of schema and type through
 * the type checker). Gateway API's own example manifests, as object literals typed with the
 * generated kinds, compile too (no unknown field, no missing required one, every enum value known).
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readCrds } from '../src/crdTypes/readCrds.js';
import { generateCrdTypes } from '../src/crdTypes/generateCrdTypes.js';
import { compileGenerated, removeGenerated, schemaNodeCount, schemaVsType, writeGenerated } from './crdTypeCheck.js';
import { goModuleDir, realCrdPaths, realCrdSources } from './goModule.js';

for (const [name, source] of Object.entries(realCrdSources)) {
  test(`${name} (${source.module}@${source.version}): the types compile strictly and hold every field of the schemas`, async (t) => {
    const crds = await readCrds(await realCrdPaths(source));
    const files = generateCrdTypes(crds);
    const dir = await writeGenerated(files);
    try {
      const { program, problems } = compileGenerated(dir, files);
      t.deepEqual(problems, []);
      const { checked, problems: missing } = schemaVsType(program, dir, crds);
      t.deepEqual(missing.slice(0, 20), []);
      const versions = crds.flatMap((crd) => crd.spec.versions.filter((v) => v.served)).length;
      t.log(`${crds.length} CRDs, ${versions} served versions, ${checked} schema nodes checked, ${files.length} files, ${Math.round(files.reduce((n, f) => n + f.text.length, 0) / 1024)} KiB`);
      t.is(checked, schemaNodeCount(crds), 'every node of the schemas is checked');
    } finally {
      await removeGenerated(dir);
    }
  });
}

test('Gateway API\'s example manifests type-check as the generated kinds (experimental channel, every served version)', async (t) => {
  const { module, version } = realCrdSources.gatewayExperimental;
  const dir = await goModuleDir(module, version);
  const crds = await readCrds(await realCrdPaths(realCrdSources.gatewayExperimental));
  const served = new Set(crds.flatMap((crd) => crd.spec.versions.filter((v) => v.served).map((v) => `${crd.spec.group}/${v.name} ${crd.spec.names.kind}`)));
  const examples: string[] = [];
  const others = new Set<string>();
  for (const file of (await readdir(join(dir, 'examples'), { recursive: true })).filter((name) => name.endsWith('.yaml')).sort()) {
    for (const document of parseAllDocuments(await readFile(join(dir, 'examples', file), 'utf8'))) {
      const object = document.toJS() as { apiVersion?: string; kind?: string } | null;
      if (object === null) continue;
      if (!served.has(`${object.apiVersion} ${object.kind}`)) {
        others.add(`${object.apiVersion} ${object.kind}`);
        continue;
      }
      examples.push(`// ${file}\nexport const example${examples.length}: import('./${object.apiVersion}/index.js').${object.kind} = ${JSON.stringify(object, null, 2)};\n`);
    }
  }
  const files = generateCrdTypes(crds);
  const uses = { path: 'examples.ts', text: examples.join('') };
  const out = await writeGenerated(files, [uses]);
  try {
    t.deepEqual(compileGenerated(out, [...files, uses]).problems, []);
  } finally {
    await removeGenerated(out);
  }
  t.true(examples.length >= 100, `${examples.length} example objects`);
  t.deepEqual([...others], ['v1 Namespace'], 'the only other objects in the examples');
});
