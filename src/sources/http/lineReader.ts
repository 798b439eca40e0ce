import { concatBytes, utf8 } from '../../client/transport/bytes.js';
import { lineTooLongError } from '../../errors.js';

/**
 * Splits a byte stream into lines (`\n`, an optional `\r` dropped), decoding each byte once: a line
 * inside one chunk is decoded straight from the chunk; only a line split across chunks is
 * concatenated. Holds at most `maxLineBytes` of an unfinished line, else throws
 * a {@link TransportError} with reason `lineTooLong`.
 */
export interface LineReader {
  /** Feeds a chunk; calls `onLine` for every completed non-empty line. Returns whether any line completed. */
  push(chunk: Uint8Array): boolean;
  /** Bytes of an unfinished line held. */
  pending(): number;
}

/** Splits a byte stream into lines (handles lines split across chunks and several per chunk), refusing lines over `maxLineBytes`. */
export function createLineReader(maxLineBytes: number, onLine: (line: string) => void): LineReader {
  let parts: Uint8Array[] = [];
  let held = 0;
  const emit = (text: string): void => {
    const end = text.endsWith('\r') ? text.length - 1 : text.length;
    if (end === 0) return;
    onLine(end === text.length ? text : text.slice(0, end));
  };
  return {
    push(chunk) {
      let start = 0;
      let completed = false;
      let newline = chunk.indexOf(10, start);
      while (newline !== -1) {
        if (held + newline - start > maxLineBytes) throw lineTooLongError(maxLineBytes);
        let text: string;
        if (held > 0) {
          parts.push(chunk.subarray(start, newline));
          text = utf8(concatBytes(parts, held + newline - start));
          parts = [];
          held = 0;
        } else {
          text = utf8(chunk, start, newline);
        }
        completed = true;
        emit(text);
        start = newline + 1;
        newline = chunk.indexOf(10, start);
      }
      if (start < chunk.length) {
        held += chunk.length - start;
        if (held > maxLineBytes) throw lineTooLongError(maxLineBytes);
        parts.push(start === 0 ? chunk : chunk.subarray(start));
      }
      return completed;
    },
    pending: () => held,
  };
}
