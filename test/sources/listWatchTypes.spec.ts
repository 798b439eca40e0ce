import test from 'ava';
import { KubeConfig, type V1ConfigMap } from '@kubernetes/client-node';
import type { Observable } from 'rxjs';
import { listWatch } from '../../src/sources/listWatch.js';
import type { RawEvent } from '../../src/sources/rawEvent.js';
import { stripManagedFields } from '../../src/sources/stripManagedFields.js';

// Type-level checks (style rule 35): these lines are compiled by `npm run typecheck`.
const kc = new KubeConfig();
const typed: Observable<RawEvent<V1ConfigMap>> = listWatch<V1ConfigMap>(kc, { version: 'v1', plural: 'configmaps' }, {
  transform: stripManagedFields,
});
void typed;
// @ts-expect-error a resource needs a plural (or an apiVersion and kind)
void (() => listWatch(kc, { version: 'v1' }));
// @ts-expect-error the transform keeps the object type
void (() => listWatch<V1ConfigMap>(kc, { apiVersion: 'v1', kind: 'ConfigMap' }, { transform: (o: V1ConfigMap) => o.data }));
// @ts-expect-error fatalErrors is 'transient' | 'permanent' | 'never'
void (() => listWatch(kc, { apiVersion: 'v1', kind: 'ConfigMap' }, { fatalErrors: 'always' }));
void (() =>
  listWatch(kc, { version: 'v1', plural: 'pods' }, {
    onStatus: (s) => {
      if (s.type === 'BACKING_OFF') {
        const n: number = s.attempt + s.delay;
        void n;
        // @ts-expect-error a BACKING_OFF status has no page
        void s.page;
      }
    },
  }));

test('listWatch is cold: building it makes no request and needs no cluster', (t) => {
  t.notThrows(() => listWatch(new KubeConfig(), { version: 'v1', plural: 'configmaps' }));
});
