import { internalizedLength, type InternShape } from '../internShape.js';
import { internedPlaces } from '../internedPlaces.js';

/**
 * One copy of each string value that repeats across objects at the places {@link internedPlaces}
 * names (label values, creation timestamps, managers, owners). `JSON.parse` gives every object its
 * own copy of each string longer than 8 characters; on 100,000 ConfigMaps as kube-apiserver serves
 * them that was ~20 of 138 MB of the cache (bench/NOTES.md, issue 24's eighth round). Annotations
 * and data are left alone: they are mostly unique, and long.
 *
 * A string's identity cannot be observed in JavaScript, so interning changes no value and no
 * result, only how many copies the heap holds. The pool is the process's, in two generations of
 * {@link generationSize} entries: when one is full it becomes the older one and the older one is
 * dropped, so a value that stops recurring (a timestamp whose second has passed, a unique label
 * value) leaves it, and it never holds more than twice that many strings.
 *
 * A browser bundle gets `internStrings.browser.ts` instead (the package's `browser` field), which
 * interns nothing.
 *
 * Internal: nothing here is exported from the package.
 */

/** Entries in one generation of the pool. */
const generationSize = 16_384;

let current = new Map<string, string>();
let older = new Map<string, string>();

/** Longer strings are not kept (a label value is at most 63 characters, a name 253). */
const maxLength = 253;

/** The pool's copy of `text`, which becomes the pool's when it has none; as it is when one copy already ({@link internalizedLength}) or longer than a name. */
export function intern(text: string): string {
  if (text.length <= internalizedLength || text.length > maxLength) return text;
  let copy = current.get(text);
  if (copy === undefined) {
    copy = older.get(text) ?? text;
    if (current.size >= generationSize) {
      older = current;
      current = new Map();
    }
    current.set(text, copy);
  }
  return copy;
}

/**
 * Replaces the strings at the {@link internedPlaces} of `value` by the pool's copies. Parts already
 * frozen are left alone: they come from the store, interned when they entered it. A member that
 * cannot be written (a transform's read-only property or getter) ends the walk: the value is the
 * same either way, only some sharing is lost.
 */
export function internStrings(value: unknown): void {
  try {
    internAt(value, internedPlaces);
  } catch {
    // A read-only member in strict mode: the rest stays as parsed, equal as JSON.
  }
}

function internAt(value: unknown, shape: InternShape): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  const record = value as Record<string, unknown>;
  const any = shape['*'];
  // Every member (or element) when the shape takes any; otherwise only the members it names.
  for (const key of Object.keys(any === undefined ? shape : record)) {
    const place = any ?? shape[key]!;
    const member = record[key];
    if (place !== true) internAt(member, place);
    else if (typeof member === 'string') record[key] = intern(member);
  }
}
