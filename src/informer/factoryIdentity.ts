/**
 * How an informer factory tells shared informers apart (internal): the keys a request is looked up
 * under, and the options a later request must agree with.
 */
import type { ListWatchResource } from '../client/listWatchResource.js';
import { builtinPlurals } from '../client/builtinPlurals.js';
import { resolveStatically } from '../client/resolveResource.js';

/** The parts of a request's options that make it another collection, besides the resource. */
export interface ScopeOptions {
  readonly labelSelector?: string | undefined;
  readonly fieldSelector?: string | undefined;
  readonly metadataOnly?: boolean | undefined;
  readonly transform?: object | undefined;
}

/** @internal The keys of one factory: a transform counts by identity, so each gets a number. */
export interface FactoryKeys {
  /** Namespace, selectors, transform and metadata-only, as one string. */
  scope(resource: ListWatchResource, options: ScopeOptions): string;
  /**
   * The key a request is looked up under: its collection by group/version/plural when that is
   * known without a request (a plural, or a built-in kind), else by apiVersion/kind until
   * discovery or a list names the other (see {@link FactoryKeys.collection} and {@link FactoryKeys.kind}).
   */
  request(resource: ListWatchResource, scope: string): string;
  /** The key of a collection by group, version and plural. */
  collection(group: string, version: string, plural: string, scope: string): string;
  /** The key of a collection by apiVersion and kind. */
  kind(apiVersion: string, kind: string, scope: string): string;
}

/** @internal Creates the {@link FactoryKeys} of one factory. */
export function factoryKeys(): FactoryKeys {
  const transformIds = new WeakMap<object, number>();
  let transforms = 0;
  const keys: FactoryKeys = {
    scope(resource, options) {
      const { transform, labelSelector = '', fieldSelector = '', metadataOnly = false } = options;
      let transformId = 0;
      if (transform !== undefined) {
        if (!transformIds.has(transform)) transformIds.set(transform, ++transforms);
        transformId = transformIds.get(transform)!;
      }
      return JSON.stringify([resource.namespace ?? '', labelSelector, fieldSelector, transformId, metadataOnly]);
    },
    request(resource, scope) {
      if ('plural' in resource) return keys.collection(resource.group ?? '', resource.version, resource.plural, scope);
      const known = resolveStatically(resource);
      return known ? keys.collection(known.group, known.version, known.plural, scope) : keys.kind(resource.apiVersion, resource.kind, scope);
    },
    collection: (group, version, plural, scope) => `${group}/${version}/${plural} ${scope}`,
    kind: (apiVersion, kind, scope) => `${apiVersion}:${kind} ${scope}`,
  };
  return keys;
}

/** The kind of a collection: its objects' `apiVersion` and `kind`. */
export interface CollectionKind {
  /** The objects' `group/version` (`v1` for the core group), e.g. `apps/v1`. */
  readonly apiVersion: string;
  /** The objects' kind, e.g. `Deployment`. */
  readonly kind: string;
}

/**
 * @internal The kind of a request known without asking the server: the one it names, or a built-in
 * kind's for its plural; `undefined` for a plural of another API (discovery or a list names it).
 */
export function knownKind(resource: ListWatchResource): CollectionKind | undefined {
  if (!('plural' in resource)) return { apiVersion: resource.apiVersion, kind: resource.kind };
  const group = resource.group ?? '';
  for (const [groupKind, plural] of builtinPlurals) {
    if (plural !== resource.plural) continue;
    const slash = groupKind.indexOf('/');
    if (groupKind.slice(0, slash) === group) return { apiVersion: group === '' ? resource.version : `${group}/${resource.version}`, kind: groupKind.slice(slash + 1) };
  }
  return undefined;
}

/** The options besides the identity that the first request fixes; a later one may repeat them, not change them. */
const fixedOptions = [
  'resyncMs',
  'graceMs',
  'buffer',
  'keyFunc',
  'scheduler',
  'pageSize',
  'listSemantic',
  'streamingList',
  'timeoutSeconds',
  'idleTimeout',
  'waitingAfter',
  'noResponseTimeout',
  'backoff',
  'fatalErrors',
  'maxLineBytes',
  'maxListBytes',
  'afterList',
  'onSynced',
  'objective',
  'lifetime',
] as const;

/**
 * @internal The error for a later request that asks a shared informer for other fixed options than
 * it has, or `undefined` when it asks for none (or the same).
 *
 * @param name the shared informer's name.
 * @param existing its options (the factory's defaults with its first request).
 * @param requested the later request's own options.
 */
export function conflictingOptions(name: string, existing: object, requested: object): TypeError | undefined {
  const has = existing as Record<string, unknown>;
  const asks = requested as Record<string, unknown>;
  for (const option of fixedOptions) {
    if (asks[option] === undefined || sameValue(asks[option], has[option])) continue;
    const hint = option === 'resyncMs' ? '; for a resync period of your own, use addHandler(handler, { resyncMs })' : '';
    return new TypeError(
      `[informerFactory] the shared informer for ${name} was created with ${option} ${show(has[option])}; this request asks for ${show(asks[option])}. ` +
        `Options besides the resource, namespace, selectors, transform and metadata-only are fixed by the first request${hint}`,
    );
  }
  return undefined;
}

/** Equal primitives, the same function or object, or plain objects with equal fields. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameValue(a[key], b[key]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function show(value: unknown): string {
  if (typeof value === 'function') return value.name ? `the function ${value.name}` : 'a function';
  if (value === undefined) return 'undefined';
  if (isPlainObject(value) || Array.isArray(value) || typeof value !== 'object') return JSON.stringify(value, (_, v: unknown) => (typeof v === 'function' ? '[function]' : v));
  return 'another object';
}
