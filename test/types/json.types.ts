/**
 * Type-level tests of `Json<T>` (issue 12 item 13), checked by `npm run typecheck`: client-node's
 * models type timestamps as `Date`, the cache holds the JSON text; `Json<T>` says so.
 */
import type { CoreV1Event, IntOrString, V1ConfigMap, V1Pod, V1Service } from '@kubernetes/client-node';
import type { Observable } from 'rxjs';
import { informer, listWatch, type Json, type RawEvent, type Snapshot } from '../../src/index.js';
import { configMap, pod } from '../../src/testing/index.js';

/** `true` only when A and B are the same type (not merely assignable). */
type Equals<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
type IsAny<T> = 0 extends 1 & T ? true : false;
declare function expectTrue<T extends true>(): T;
declare function expectType<T>(value: T): void;

// Dates become strings, through optional fields, nested objects and arrays.
expectTrue<Equals<NonNullable<Json<V1Pod>['metadata']>['creationTimestamp'], string | undefined>>();
expectTrue<Equals<Json<{ at: Date }>, { at: string }>>();
expectTrue<Equals<Json<{ at?: Date }>, { at?: string }>>();
expectTrue<Equals<Json<{ at: Date | undefined }>, { at: string | undefined }>>();
expectTrue<Equals<Json<{ times: Date[] }>, { times: string[] }>>();
expectTrue<Equals<Json<{ nested: { deeper: { at: Date }[] } }>, { nested: { deeper: { at: string }[] } }>>();
// readonly fields and readonly arrays stay readonly; tuples stay tuples.
expectTrue<Equals<Json<{ readonly at: Date }>, { readonly at: string }>>();
expectTrue<Equals<Json<{ readonly times: readonly Date[] }>, { readonly times: readonly string[] }>>();
expectTrue<Equals<Json<[Date, number]>, [string, number]>>();
// What JSON already is stays as it is: strings, numbers, IntOrString, maps of strings, unknown, any.
expectTrue<Equals<Json<IntOrString>, IntOrString>>();
expectTrue<Equals<Json<{ [key: string]: string }>, { [key: string]: string }>>();
expectTrue<Equals<Json<unknown>, unknown>>();
expectTrue<IsAny<Json<{ free: any }>['free']>>();
expectTrue<Equals<Json<string | null>, string | null>>();
// client-node specifics: MicroTime (a Date subclass) and IntOrString fields.
expectTrue<Equals<Json<CoreV1Event>['eventTime'], string | undefined>>();
expectTrue<Equals<NonNullable<NonNullable<Json<V1Service>['spec']>['ports']>[number]['targetPort'], IntOrString | undefined>>();

// The lie Json<T> removes: with V1Pod, getTime() compiles and throws at run time.
declare const cached: Json<V1Pod>;
// @ts-expect-error a cached timestamp is RFC 3339 text, not a Date
cached.metadata?.creationTimestamp?.getTime();
expectType<number>(Date.parse(cached.metadata?.creationTimestamp ?? ''));
// @ts-expect-error readonly-ness of the model is kept, never added or removed silently
const frozenTimes: Json<{ readonly times: readonly Date[] }> = { times: [] }; frozenTimes.times.push('x');

// Json<V1Pod> is what informer() and listWatch() are typed with.
declare const raw$: Observable<RawEvent<Json<V1Pod>>>;
const pods = informer(raw$, { indexers: { node: (p) => [p.spec?.nodeName ?? ''] } });
expectType<Observable<Snapshot<Json<V1Pod>>>>(pods.snapshots$);
expectType<string | undefined>(pods.snapshot.get('default/a')?.status?.startTime);
declare const kubeConfig: import('@kubernetes/client-node').KubeConfig;
expectType<Observable<RawEvent<Json<V1ConfigMap>>>>(listWatch<Json<V1ConfigMap>>(kubeConfig, { version: 'v1', plural: 'configmaps' }));

// The testing kit's builders are JSON objects of the client-node models.
expectType<Json<V1Pod>>(pod('a', { nodeName: 'n1', phase: 'Running' }));
expectType<Json<V1ConfigMap>>(configMap('a', { data: { k: 'v' } }));
