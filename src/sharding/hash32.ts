/**
 * @internal MurmurHash3 (x86, 32-bit) of a string's UTF-16LE bytes (two code units per block): a fast,
 * well-mixed hash for ring positions. Not cryptographic; stable across processes and versions
 * (every replica and every sharder must place keys alike).
 */
export function hash32(text: string, seed = 0): number {
  let h = seed | 0;
  const length = text.length;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    h ^= mixBlock(text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16));
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  if (i < length) h ^= mixBlock(text.charCodeAt(i));
  h ^= length * 2;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mixBlock(block: number): number {
  let k = Math.imul(block, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  return Math.imul(k, 0x1b873593);
}
