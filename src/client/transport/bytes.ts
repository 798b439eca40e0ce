/**
 * Byte helpers for response bodies, the same in Node and in a browser. A body's chunks are
 * `Uint8Array`s: Node's `Buffer`s from `node:http` (Buffer is a Uint8Array), plain ones from
 * `fetch`. Where the chunk is a `Buffer` (and `Buffer` exists) its own native methods are used, so
 * Node's read path does what it did before; otherwise `TextDecoder` and plain copies.
 */

type NodeBuffer = Uint8Array & { toString(encoding: 'utf8', start?: number, end?: number): string };
interface NodeBufferClass {
  isBuffer(value: unknown): value is NodeBuffer;
  concat(parts: readonly Uint8Array[], size?: number): NodeBuffer;
  from(text: string, encoding: 'utf8'): NodeBuffer;
}

/** Node's `Buffer`, looked up on the global object (a bundle for a browser must not name it). */
const nodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
const decoder = new TextDecoder();

/** The UTF-8 text of `bytes[start, end)`. */
export function utf8(bytes: Uint8Array, start = 0, end = bytes.length): string {
  if (nodeBuffer !== undefined && nodeBuffer.isBuffer(bytes)) return (bytes as NodeBuffer).toString('utf8', start, end);
  return decoder.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
}

/** The `size` bytes of `parts`, one after the other, in one new array. */
export function concatBytes(parts: readonly Uint8Array[], size = parts.reduce((sum, part) => sum + part.length, 0)): Uint8Array {
  if (nodeBuffer !== undefined) return nodeBuffer.concat(parts, size);
  const all = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    if (at + part.length > size) {
      all.set(part.subarray(0, size - at), at);
      break;
    }
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** `text` as UTF-8 bytes. */
export function textBytes(text: string): Uint8Array {
  return nodeBuffer !== undefined ? nodeBuffer.from(text, 'utf8') : new TextEncoder().encode(text);
}

/** Where `needle` first occurs in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  if (nodeBuffer !== undefined && nodeBuffer.isBuffer(haystack)) return (haystack as unknown as { indexOf(n: Uint8Array): number }).indexOf(needle);
  const first = needle[0];
  if (first === undefined) return 0;
  for (let i = haystack.indexOf(first); i !== -1 && i + needle.length <= haystack.length; i = haystack.indexOf(first, i + 1)) {
    let k = 1;
    while (k < needle.length && haystack[i + k] === needle[k]) k++;
    if (k === needle.length) return i;
  }
  return -1;
}
