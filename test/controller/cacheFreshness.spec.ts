/** cacheFreshness(): when a key's cache is fresh against the process's writes, one row per case. */
import test from 'ava';
import { NEVER } from 'rxjs';
import { createWriteRecord } from '../../src/client/writeRecord.js';
import { cacheFreshness } from '../../src/controller/cacheFreshness.js';
import type { KubeObject } from '../../src/store/kubeObject.js';

const type = { apiVersion: 'v1', kind: 'ConfigMap' } as const;
const cm = (uid: string, rv: string): KubeObject => ({ ...type, metadata: { uid, name: 'x', namespace: 'n', resourceVersion: rv } });

/** The record holds this process's create of n/x as uid u1 at resourceVersion 5. */
const rows: [string, { cached?: KubeObject; collection: string; typed?: boolean }, boolean][] = [
  ['just created, the cache has not listed it', { collection: '4' }, false],
  ['just created, the cache holds an older object of that name', { cached: cm('u0', '3'), collection: '4' }, false],
  ['the cache holds the created uid', { cached: cm('u1', '5'), collection: '5' }, true],
  ['the cache moved past the create without it: deleted by someone since', { collection: '6' }, true],
  ['a newer object under the name: replaced by someone since', { cached: cm('u9', '7'), collection: '7' }, true],
  ['the primary kind is unknown: not waited for', { collection: '4', typed: false }, true],
  ['resourceVersions that cannot be ordered: not waited for', { collection: 'abc' }, true],
];

for (const [name, { cached, collection, typed = true }, fresh] of rows) {
  test(`cacheFreshness: ${name} → ${fresh ? 'fresh' : 'behind'}`, (t) => {
    const record = createWriteRecord();
    record.noteResponse('create', cm('u1', '5'));
    const snapshot = { get: (key: string) => (key === 'n/x' ? cached : undefined), resourceVersion: collection };
    const freshness = cacheFreshness({ snapshot, changes$: NEVER }, record, typed ? type : undefined);
    t.is(freshness.isFresh('n/x'), fresh);
  });
}
