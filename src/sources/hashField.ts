/**
 * The 64-bit FNV-1a hash of a string's UTF-8 bytes as 16 lower-case hex digits: the hash the API
 * server's sharded list and watch (KEP-5866) puts an object's `metadata.uid` or
 * `metadata.namespace` through before comparing it with a `shardRange`. Equal to Go's
 * `hash/fnv` `New64a` formatted `%016x` (apimachinery's `sharding.HashField`).
 *
 * ```text
 * hashField('')        → 'cbf29ce484222325'   (the offset basis)
 * hashField('default') → 'ebada5168620c5fe'
 * ```
 *
 * @param value the field's value (a uid, a namespace).
 * @returns 16 hex digits.
 */
export function hashField(value: string): string {
  // The state in four 16-bit limbs, low first; ×prime = ×0x1b3 + ×2^40, both kept below 2^53.
  let h0 = 0x2325;
  let h1 = 0x8422;
  let h2 = 0x9ce4;
  let h3 = 0xcbf2;
  const step = (byte: number): void => {
    h0 ^= byte;
    const t0 = h0 * 0x1b3;
    const t1 = h1 * 0x1b3 + (t0 >>> 16);
    const t2 = h2 * 0x1b3 + (t1 >>> 16) + (h0 << 8);
    const t3 = h3 * 0x1b3 + (t2 >>> 16) + (h1 << 8);
    h0 = t0 & 0xffff;
    h1 = t1 & 0xffff;
    h2 = t2 & 0xffff;
    h3 = t3 & 0xffff;
  };
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x80) step(code);
    else {
      for (const byte of encoder.encode(value.slice(i))) step(byte);
      break;
    }
  }
  return hex4(h3) + hex4(h2) + hex4(h1) + hex4(h0);
}

const encoder = new TextEncoder();
const hex4 = (limb: number): string => limb.toString(16).padStart(4, '0');
