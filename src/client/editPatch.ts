import { enablePatches, produceWithPatches, type Draft, type Patch } from 'immer';
import { ControllerError } from '../errors.js';
import type { KubeObject } from '../store/kubeObject.js';
import { argumentError } from '../options/optionChecks.js';

/** One RFC 6902 JSON Patch operation, as the API server takes them (`application/json-patch+json`). */
export type JsonPatchOperation =
  | {
      /** `add` or `replace` the value at `path`, or `test` that it equals `value` (else the patch fails). */
      readonly op: 'add' | 'replace' | 'test';
      /** JSON Pointer (RFC 6901) of the target, e.g. `/metadata/labels/app`. */
      readonly path: string;
      /** The value added, put in place, or compared. */
      readonly value: unknown;
    }
  | {
      /** Remove the value at `path`. */
      readonly op: 'remove';
      /** JSON Pointer (RFC 6901) of the value removed. */
      readonly path: string;
    }
  | {
      /** `move` or `copy` the value at `from` to `path`. */
      readonly op: 'move' | 'copy';
      /** JSON Pointer (RFC 6901) of the value moved or copied. */
      readonly from: string;
      /** JSON Pointer (RFC 6901) of where it goes. */
      readonly path: string;
    };

/** Options of {@link editPatch}. */
export interface EditPatchConfig {
  /**
   * Put `test /metadata/resourceVersion` first, so the patch applies only to the version that was
   * edited (a compare-and-swap; a newer object fails it with a conflict). Default `true`. With
   * `false`, every array the edit touches is tested instead (its whole value as read), so an index
   * never hits an element another writer moved.
   */
  readonly optimisticLock?: boolean;
  /** Only paths under this top-level field may change (`'status'` for the status subresource). */
  readonly within?: string;
}

/** The result of {@link editPatch}: the edited object and the operations that make it. */
export interface EditPatch<T> {
  /** The edited object (frozen, sharing what did not change with the base). */
  readonly object: T;
  /** Empty when the edit changed nothing: then there is nothing to send. */
  readonly operations: readonly JsonPatchOperation[];
}

/**
 * Turns an edit of a draft into a JSON Patch: immer records what the recipe changed, and each
 * change becomes an RFC 6902 operation with an escaped pointer (`~` → `~0`, `/` → `~1`), arrays by
 * index. The base (typically a frozen object from a snapshot) is not touched.
 *
 * ```text
 * base:    { metadata: { resourceVersion: "7", labels: { "app/x": "a" } } }
 * recipe:  draft => { draft.metadata.labels["app/x"] = "b" }
 * ops:     test /metadata/resourceVersion "7"
 *          replace /metadata/labels/app~1x "b"
 * ```
 *
 * - An edit that changes nothing (including re-assigning equal values) gives no operations.
 * - Assigning `undefined` removes the field, as JSON would drop it.
 * - Refused, as {@link ControllerError} `invalidEdit`: a recipe that returns a replacement object
 *   (use a PUT or server-side apply for that), `Map`/`Set` values, and with `within`, changes
 *   outside that field.
 *
 * ## Example
 * ```ts
 * import { editPatch } from 'rx-informer/controller';
 * import type { KubeObject } from 'rx-informer';
 *
 * const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'demo', resourceVersion: '7' } };
 * const { operations } = editPatch(cm, (draft) => {
 *   draft.metadata!.labels = { ...draft.metadata!.labels, tier: 'web' };
 * });
 * // [{ op: 'test', path: '/metadata/resourceVersion', value: '7' },
 * //  { op: 'add', path: '/metadata/labels/tier', value: 'web' }]
 * ```
 *
 * @param base the object as read (from the cache).
 * @param recipe mutates the draft; its return value must be `undefined`.
 * @param config the optimistic lock, and a field the edit must stay within.
 * @returns the edited object and the operations.
 * @throws {ControllerError} `invalidEdit` as above; `TypeError` when the lock is on and the base has no resourceVersion.
 */
export function editPatch<T extends KubeObject>(base: T, recipe: (draft: Draft<T>) => void, config: EditPatchConfig = {}): EditPatch<T> {
  const { optimisticLock = true, within } = config;
  if (typeof recipe !== 'function') throw argumentError('editPatch', 'recipe must be a function');
  enablePatches();
  const [next, patches] = produceWithPatches(base, recipe as (draft: Draft<T>) => void);
  const changes = patches.flatMap((patch) => toOperations(base, patch));
  // Edits that cancel out (an array spliced and restored) may leave operations that change nothing.
  if (changes.length === 0 || jsonEqual(next, base)) return { object: base, operations: [] };
  if (within !== undefined) {
    const outside = changes.filter((op) => op.path !== `/${escapeToken(within)}` && !op.path.startsWith(`/${escapeToken(within)}/`));
    if (outside.length > 0) throw new ControllerError('invalidEdit', `editPatch: an edit of ${within} also changed ${outside.map((op) => op.path).join(', ')}`);
  }
  if (optimisticLock) {
    const rv = base.metadata?.resourceVersion;
    if (typeof rv !== 'string' || rv === '') throw argumentError('editPatch', 'the object has no metadata.resourceVersion to lock on; pass optimisticLock: false to send the patch without it');
    return { object: next as T, operations: [{ op: 'test', path: '/metadata/resourceVersion', value: rv }, ...changes] };
  }
  return { object: next as T, operations: [...arrayGuards(base, changes), ...changes] };
}

function toOperations(base: unknown, patch: Patch): JsonPatchOperation[] {
  if (patch.path.length === 0) throw new ControllerError('invalidEdit', 'editPatch: the recipe returned a new object; edit the draft in place (replacing a whole object is a PUT or an apply)');
  const value: unknown = (patch as { value?: unknown }).value;
  if (containsMapOrSet(value)) throw new ControllerError('invalidEdit', `editPatch: a Map or Set at ${pointer(patch.path)} has no JSON form`);
  const path = pointer(patch.path);
  switch (patch.op) {
    case 'remove':
      return [{ op: 'remove', path }];
    case 'add':
      return value === undefined ? [] : [{ op: 'add', path, value }];
    case 'replace': {
      if (value === undefined) return [{ op: 'remove', path }];
      const before = valueAt(base, patch.path);
      return before.found && jsonEqual(before.value, value) ? [] : [{ op: 'replace', path, value }];
    }
  }
}

/** With no resourceVersion lock: `test` each touched array's value as read, before its first operation. */
function arrayGuards(base: unknown, operations: readonly JsonPatchOperation[]): JsonPatchOperation[] {
  const guarded = new Set<string>();
  const guards: JsonPatchOperation[] = [];
  for (const op of operations) {
    const tokens = op.path.split('/').slice(1).map(unescapeToken);
    let current: unknown = base;
    for (let depth = 0; depth < tokens.length && current !== null && typeof current === 'object'; depth++) {
      if (Array.isArray(current)) {
        const at = pointer(tokens.slice(0, depth));
        if (!guarded.has(at)) {
          guarded.add(at);
          guards.push({ op: 'test', path: at, value: current });
        }
        break;
      }
      current = (current as Record<string, unknown>)[tokens[depth]!];
    }
  }
  return guards;
}

function valueAt(root: unknown, path: readonly (string | number)[]): { found: boolean; value?: unknown } {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, key)) return { found: false };
    current = (current as Record<string | number, unknown>)[key];
  }
  return { found: true, value: current };
}

function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function containsMapOrSet(value: unknown): boolean {
  if (value instanceof Map || value instanceof Set) return true;
  if (value === null || typeof value !== 'object') return false;
  return Object.values(value).some(containsMapOrSet);
}

/** RFC 6901: `~` → `~0`, then `/` → `~1`. */
function escapeToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function pointer(path: readonly (string | number)[]): string {
  return path.map((token) => `/${escapeToken(token)}`).join('');
}
