import type { KubeObject } from '../store/kubeObject.js';

/** Options of the object factories. */
export interface ObjectOptions {
  /** `metadata.namespace`. Default `default`; `''` leaves it out (a cluster-scoped object). */
  readonly namespace?: string;
  /** `metadata.resourceVersion`. Default: none. */
  readonly resourceVersion?: string;
  /** `metadata.labels` (copied). Default: none. */
  readonly labels?: Readonly<Record<string, string>>;
  /** `metadata.annotations` (copied). Default: none. */
  readonly annotations?: Readonly<Record<string, string>>;
  /** `metadata.uid`. Default: none. */
  readonly uid?: string;
  /** `metadata.generation`. Default: none. */
  readonly generation?: number;
}

/** A ConfigMap as the API server sends it; a `Json<V1ConfigMap>` of client-node. */
export interface ConfigMapObject extends KubeObject {
  /** Always `v1`. */
  readonly apiVersion: 'v1';
  /** Always `ConfigMap`. */
  readonly kind: 'ConfigMap';
  /** The ConfigMap's metadata, as the factory set it. */
  readonly metadata: {
    /** The object's name. */
    readonly name: string;
    /** The object's namespace (`default` from the factory unless given; absent when given `''`). */
    readonly namespace?: string;
    /** The resourceVersion, when given. */
    readonly resourceVersion?: string;
    /** The uid, when given. */
    readonly uid?: string;
    /** The labels, when given. */
    readonly labels?: Readonly<Record<string, string>>;
    /** The annotations, when given. */
    readonly annotations?: Readonly<Record<string, string>>;
  };
  /** The ConfigMap's string entries, when given. */
  readonly data?: Readonly<Record<string, string>>;
}

/** A Pod as the API server sends it (the fields the examples use); a `Json<V1Pod>` of client-node. */
export interface PodObject extends KubeObject {
  /** Always `v1`. */
  readonly apiVersion: 'v1';
  /** Always `Pod`. */
  readonly kind: 'Pod';
  /** The Pod's metadata, as the factory set it. */
  readonly metadata: {
    /** The object's name. */
    readonly name: string;
    /** The object's namespace (`default` from the factory unless given; absent when given `''`). */
    readonly namespace?: string;
    /** The resourceVersion, when given. */
    readonly resourceVersion?: string;
    /** The uid, when given. */
    readonly uid?: string;
    /** The generation, when given. */
    readonly generation?: number;
    /** The labels, when given. */
    readonly labels?: Readonly<Record<string, string>>;
    /** The annotations, when given. */
    readonly annotations?: Readonly<Record<string, string>>;
  };
  /** Where the Pod runs and what. */
  readonly spec: {
    /** The node it is bound to; absent while unscheduled. */
    readonly nodeName?: string;
    /** Its containers (the factory makes one, `main`). */
    readonly containers: {
      /** The container's name. */
      readonly name: string;
      /** The container's image, e.g. `nginx:1.27`. */
      readonly image: string;
    }[];
  };
  /** What the Pod reports, when given a phase. */
  readonly status?: {
    /** `Pending`, `Running`, `Succeeded`, `Failed` or `Unknown`. */
    readonly phase?: string;
  };
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
export function configMap(
  name: string,
  options: ObjectOptions & {
    /** The ConfigMap's `data` (copied). Default: none. */
    readonly data?: Readonly<Record<string, string>>;
  } = {},
): ConfigMapObject {
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
export function pod(
  name: string,
  options: ObjectOptions & {
    /** `spec.nodeName`. Default: none (unscheduled). */
    readonly nodeName?: string;
    /** The image of its one container, `main`. Default `nginx:1.27`. */
    readonly image?: string;
    /** `status.phase`. Default: no status. */
    readonly phase?: string;
  } = {},
): PodObject {
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
