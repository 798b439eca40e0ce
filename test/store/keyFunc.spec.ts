import test from 'ava';
import { tombstone } from '../../src/store/delta.js';
import { metaNamespaceKey, objectKey, type KeyFunc } from '../../src/store/keyFunc.js';
import type { KubeObject } from '../../src/store/kubeObject.js';
import { configMap } from '../../src/testing/objects.js';

test('metaNamespaceKey: namespace/name, or name when cluster-scoped', (t) => {
  t.is(metaNamespaceKey(configMap('a', { namespace: 'web' })), 'web/a');
  t.is(metaNamespaceKey(configMap('node-config', { namespace: '' })), 'node-config');
  t.is(objectKey('web', 'a'), 'web/a');
  t.is(objectKey(undefined, 'a'), 'a');
});

test('metaNamespaceKey accepts a tombstone and returns the key it was deleted under (DeletionHandling)', (t) => {
  const last = configMap('a', { namespace: 'web' });
  t.is(metaNamespaceKey(tombstone('web/a', last)), 'web/a');
  // the tombstone's key wins, even when its last known object is missing or was keyed otherwise
  t.is(metaNamespaceKey(tombstone<KubeObject>('web/a', undefined)), 'web/a');
  t.is(metaNamespaceKey(tombstone('custom:key', last)), 'custom:key');
  // what an onDelete handler receives can be keyed without a check first
  const onDelete = (object: KubeObject | ReturnType<typeof tombstone<KubeObject>>): string => metaNamespaceKey(object);
  t.is(onDelete(tombstone('db/c', undefined)), 'db/c');
  const asKeyFunc: KeyFunc<KubeObject> = metaNamespaceKey;
  t.is(asKeyFunc(last), 'web/a');
});

test('metaNamespaceKey still refuses an object without a name, naming it', (t) => {
  const error = t.throws(() => metaNamespaceKey({ metadata: { namespace: 'web' } } as KubeObject), { instanceOf: TypeError });
  t.regex(error!.message, /no metadata\.name.*"namespace":"web"/);
});
