import type { KubeObject } from '../store/kubeObject.js';

/** Options of the object factories. */
export interface ObjectOptions {
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly uid?: string;
  readonly generation?: number;
}

/** A ConfigMap as the API server sends it; a `Json<V1ConfigMap>` of client-node. */
export interface ConfigMapObject extends KubeObject {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap';
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string; readonly uid?: string; readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly data?: Readonly<Record<string, string>>;
}

/** A Pod as the API server sends it (the fields the examples use); a `Json<V1Pod>` of client-node. */
export interface PodObject extends KubeObject {
  readonly apiVersion: 'v1';
  readonly kind: 'Pod';
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string; readonly uid?: string; readonly generation?: number; readonly labels?: Readonly<Record<string, string>>; readonly annotations?: Readonly<Record<string, string>> };
  readonly spec: { readonly nodeName?: string; readonly containers: { readonly name: string; readonly image: string }[] };
  readonly status?: { readonly phase?: string };
}

function metadataOf(name: string, options: ObjectOptions): Record<string, unknown> {
  const { namespace = 'default', resourceVersion, labels, annotations, uid, generation } = options;
  return {
    name,
    ...(namespace ? { namespace } : {}),
    ...(resourceVersion !== undefined ? { resourceVersion } : {}),
    ...(uid !== undefined ? { uid } : {}),
    ...(generation !== undefined ? { generation } : {}),
    ...(labels ? { labels: { ...labels } } : {}),
    ...(annotations ? { annotations: { ...annotations } } : {}),
  };
}

/**
 * Builds a ConfigMap. `namespace` defaults to `default` (pass `''` for none).
 *
 * @example configMap('settings', { namespace: 'web', resourceVersion: '12', data: { mode: 'fast' } })
 */
export function configMap(name: string, options: ObjectOptions & { readonly data?: Readonly<Record<string, string>> } = {}): ConfigMapObject {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: metadataOf(name, options) as ConfigMapObject['metadata'],
    ...(options.data ? { data: { ...options.data } } : {}),
  };
}

/**
 * Builds a Pod with one container. `namespace` defaults to `default`.
 *
 * @example pod('web-1', { nodeName: 'node-a', labels: { app: 'web' }, resourceVersion: '3' })
 */
export function pod(name: string, options: ObjectOptions & { readonly nodeName?: string; readonly image?: string; readonly phase?: string } = {}): PodObject {
  const { nodeName, image = 'nginx:1.27', phase } = options;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadataOf(name, options) as PodObject['metadata'],
    spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'main', image }] },
    ...(phase ? { status: { phase } } : {}),
  };
}

/** A copy of `object` with `metadata.resourceVersion` set. */
export function withResourceVersion<T extends KubeObject>(object: T, resourceVersion: string): T {
  return { ...object, metadata: { ...object.metadata, resourceVersion } };
}
