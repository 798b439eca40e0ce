/**
 * What a browser bundle gets for `internStrings.js` (the package's `browser` field maps it here):
 * nothing is interned. One copy of repeated metadata strings pays on caches of tens of thousands of
 * objects in a long-running process; a web app's caches are small, and it pays for every byte of
 * its bundle (the size budget of test/browser/bundle.spec.ts). The store's values are the same
 * either way: only how many copies of a string the heap holds differs.
 *
 * Internal: nothing here is exported from the package.
 */
export function internStrings(_value: unknown): void {}
