/**
 * Orders two resourceVersions of one object: negative when `a` is older, 0 when equal, positive
 * when newer; `undefined` when either is not a decimal integer, so they cannot be ordered. Servers
 * since Kubernetes 1.35 promise integers that grow with every write (KEP-5504, GA); older servers
 * and some aggregated APIs give opaque strings, which clients may only test for equality.
 *
 * Compared as big integers: etcd revisions are 64-bit and can pass `Number.MAX_SAFE_INTEGER`.
 *
 * @param a a resourceVersion.
 * @param b another.
 * @returns the order, or `undefined` when it is not known.
 */
export function compareResourceVersions(a: string, b: string): number | undefined {
  if (!integer.test(a) || !integer.test(b)) return undefined;
  if (a.length !== b.length) return a.length - b.length; // no leading zeros: longer is larger
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A decimal integer without leading zeros (`0` alone is one). */
const integer = /^(0|[1-9][0-9]*)$/;
