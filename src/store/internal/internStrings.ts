/**
 * One copy of each string value that repeats across objects in the places where Kubernetes
 * metadata repeats: label values (an app's name, its chart, `part-of`), the creation timestamp
 * (objects created in the same second), managedFields' manager, operation, apiVersion, time and
 * fieldsType, and owner references (siblings share their owner). `JSON.parse` gives every object
 * its own copy of each of them (it internalizes strings of up to 8 characters only); on 100,000
 * ConfigMaps as kube-apiserver serves them that is ~240 of their ~1,700 bytes on the heap
 * (bench/NOTES.md, issue 24's eighth round). Annotations and data are left alone: they are mostly
 * unique (checksums, applied configurations) and long.
 *
 * A string's identity cannot be observed in JavaScript, so interning changes no value and no
 * result: only how many copies the heap holds. The pool is the process's, in two generations of
 * {@link generationSize} entries: when one is full it becomes the older one and the older one is
 * dropped, so values that stop recurring (a timestamp whose second has passed, a unique label
 * value) leave it, and it never holds more than twice that many strings.
 *
 * Internal: nothing here is exported from the package.
 */

/** Where strings are interned: member names, `'*'` for any member or element, `true` for the string there. */
export interface InternShape {
  readonly [member: string]: InternShape | true;
}

/** The places of a Kubernetes object whose string values are interned, from its root. */
export const internedPlaces: InternShape = {
  metadata: {
    creationTimestamp: true,
    deletionTimestamp: true,
    generateName: true,
    labels: { '*': true },
    managedFields: { '*': { manager: true, operation: true, apiVersion: true, time: true, fieldsType: true, subresource: true } },
    ownerReferences: { '*': { apiVersion: true, kind: true, name: true, uid: true } },
  },
};

/** Entries in one generation of the pool. */
const generationSize = 16_384;
/** Longer strings are not kept (a label value is at most 63 characters, a name 253). */
const maxLength = 253;
/** Strings this short are one copy already: `JSON.parse` internalizes them. */
const internalizedLength = 8;

let current = new Map<string, string>();
let older = new Map<string, string>();

/** The pool's copy of `text`, which becomes the pool's when it has none. */
export function intern(text: string): string {
  if (text.length <= internalizedLength || text.length > maxLength) return text;
  const kept = current.get(text);
  if (kept !== undefined) return kept;
  const copy = older.get(text) ?? text;
  if (current.size >= generationSize) {
    older = current;
    current = new Map();
  }
  current.set(text, copy);
  return copy;
}

/**
 * Replaces the strings at the places `shape` names in `value` (not frozen: parts already frozen
 * come from the store and were interned when they entered it) by the pool's copies. A member that
 * cannot be written (a transform's read-only property or getter) ends the walk: the value is the
 * same either way, so nothing is lost but some sharing.
 */
export function internStrings(value: unknown, shape: InternShape = internedPlaces): void {
  try {
    internAt(value, shape);
  } catch {
    // A read-only member in strict mode: the rest stays as parsed, equal as JSON.
  }
}

function internAt(value: unknown, shape: InternShape): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    const each = shape['*'];
    if (each === undefined) return;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (each === true) {
        if (typeof item === 'string') value[i] = intern(item);
      } else internAt(item, each);
    }
    return;
  }
  const record = value as Record<string, unknown>;
  const any = shape['*'];
  if (any === undefined) {
    // Named places only: look them up rather than walk every member.
    for (const key in shape) internMember(record, key, shape[key]!);
  } else for (const key in record) if (key !== '__proto__') internMember(record, key, any);
}

function internMember(record: Record<string, unknown>, key: string, place: InternShape | true): void {
  const member = record[key];
  if (place === true) {
    if (typeof member === 'string') record[key] = intern(member);
  } else internAt(member, place);
}

/** The shape below `shape` at `key` (a member name or an index), if any. */
export function placeBelow(shape: InternShape | undefined, key: string): InternShape | true | undefined {
  return shape === undefined ? undefined : (shape[key] ?? shape['*']);
}
