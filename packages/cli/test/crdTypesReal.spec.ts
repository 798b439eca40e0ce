/*
 * crd-types on real CRDs, taken from the Go modules that ship them (goModule.ts fetches them through
 * the Go module proxy): Gateway API (standard and experimental channels), Cluster API's core and
 * Istio's. The types compile with 0 errors under the strictest options (skipLibCheck off), and every
 * field of every served version's schema is in the kind's type (a walk of schema and type through
 * the type checker).
 */
import test from 'ava';
import { readCrds } from '../src/crdTypes/readCrds.js';
import { generateCrdTypes } from '../src/crdTypes/generateCrdTypes.js';
import { compileGenerated, removeGenerated, schemaNodeCount, schemaVsType, writeGenerated } from './crdTypeCheck.js';
import { realCrdPaths, realCrdSources } from './goModule.js';

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
