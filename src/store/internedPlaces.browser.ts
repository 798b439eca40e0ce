import type { InternShape } from './internShape.js';

/**
 * What a browser bundle gets for `internedPlaces.js` (the package's `browser` field maps it here,
 * as it maps the interning to its no-op, `internal/internStrings.browser.ts`): no place, so the
 * memory estimate counts every string as the object's own, which is what a browser's heap holds.
 *
 * Internal: nothing here is exported from the package.
 */
export const internedPlaces: InternShape = {};
