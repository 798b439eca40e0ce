import test from 'ava';
import { stripManagedFields } from '../../src/sources/stripManagedFields.js';

test('drops metadata.managedFields in place, idempotent, tolerates objects without metadata', (t) => {
  const o = { kind: 'ConfigMap', metadata: { name: 'a', managedFields: [{ manager: 'kubectl' }] }, data: { x: '1' } };
  t.is(stripManagedFields(o), o);
  t.deepEqual(o, { kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } });
  t.is(stripManagedFields(o), o);
  t.deepEqual(stripManagedFields({ kind: 'X' }), { kind: 'X' });
});
