/**
 * A set of places in a Kubernetes object, as a tree: member names, `'*'` for any member or
 * element, `true` for the string there. {@link internedPlaces} is the one the store interns at.
 *
 * Internal: nothing here is exported from the package.
 */
export interface InternShape {
  readonly [member: string]: InternShape | true;
}

/**
 * Strings of up to this many characters are one copy already: `JSON.parse` internalizes them, so
 * there is nothing to intern and the memory estimate counts them as nothing.
 */
export const internalizedLength = 8;

/** The shape below `shape` at `key` (a member name or an index), if any. */
export function placeBelow(shape: InternShape | undefined, key: string): InternShape | true | undefined {
  return shape === undefined ? undefined : (shape[key] ?? shape['*']);
}
