import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { drained } from './drained.js';

/**
 * Writes watch lines to a chunked response. Lines sent in the same turn of the event loop go out
 * as one chunk; when `splitBytes()` returns a size, the data goes out in pieces of that many bytes,
 * one chunk per piece and one event-loop turn apart, so clients see lines split across chunks.
 * A client that leaves more than 64 MiB unread has its watch ended.
 *
 * @internal
 */
export interface LineWriter {
  send(line: string): void;
  /**
   * Sends `lines` (after anything queued), taking each line from the iterable only as the client
   * reads: pieces of about 64 KiB, each written once the previous one drained. How the initial
   * events of a watch go out, like the apiserver encoding them one by one. Lines sent meanwhile
   * follow them.
   */
  sendAll(lines: Iterable<string>): void;
  /** Sends what is queued, then ends the response cleanly. */
  end(): void;
  /** Sends what is queued plus `fragment` (e.g. half a line), then destroys the socket. */
  breakOff(fragment: string, reset: boolean): void;
}

const maxBufferedBytes = 64 * 1024 * 1024;
const pieceBytes = 64 * 1024;

/** Creates a {@link LineWriter} over `res`. @internal */
export function createLineWriter(res: ServerResponse, splitBytes: () => number | undefined): LineWriter {
  let pending: string[] = [];
  let scheduled = false;
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const take = (): string => {
    const data = pending.join('');
    pending = [];
    return data;
  };
  // Writes `data` now: whole, or split into one chunk per turn; with `wait`, until the client drained it.
  const put = async (data: string, wait: boolean): Promise<void> => {
    const size = splitBytes();
    if (size === undefined || size <= 0) {
      if (!res.destroyed && !res.write(data) && wait) await drained(res);
      return;
    }
    const bytes = Buffer.from(data);
    for (let i = 0; i < bytes.length && !res.destroyed; i += size) {
      res.write(bytes.subarray(i, i + size));
      await nextTurn();
    }
  };
  const write = (data: string): void => {
    if (data === '' || closed || res.destroyed) return;
    if (res.writableLength > maxBufferedBytes) {
      // A client this far behind is cut off, as the real server terminates unresponsive watchers.
      closed = true;
      void chain.then(() => res.end());
      return;
    }
    chain = chain.then(() => put(data, false));
  };
  const flush = (): void => {
    scheduled = false;
    write(take());
  };

  return {
    send(line) {
      if (closed) return;
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    sendAll(lines) {
      if (closed) return;
      write(take());
      chain = chain.then(async () => {
        let piece = '';
        for (const line of lines) {
          if (closed || res.destroyed) return;
          piece += line;
          if (piece.length >= pieceBytes) {
            await put(piece, true);
            piece = '';
          }
        }
        if (piece !== '' && !res.destroyed) await put(piece, true);
      });
    },
    end() {
      if (closed) return;
      write(take());
      closed = true;
      void chain.then(() => {
        if (!res.destroyed) res.end();
      });
    },
    breakOff(fragment, reset) {
      if (closed) return;
      write(take() + fragment);
      closed = true;
      void chain.then(() => {
        if (res.destroyed) return;
        res.write('', () => {
          // Give the kernel a moment to send the fragment before the connection goes away.
          setTimeout(() => {
            const socket = res.socket;
            if (reset && socket && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
            else socket?.destroy();
          }, 10).unref();
        });
      });
    },
  };
}
