import type { IncomingMessage, ServerResponse } from 'node:http';
import { logEntryFor, type MutableRequestLogEntry } from './requestLogEntry.js';

/**
 * The test server's request log and the waits of its control API (`waitForRequest`,
 * `waitForWatches`): each wait re-checks its condition whenever something it could be waiting for
 * happens — a request arrives, a response starts or ends, a watch opens or closes. @internal
 */
export interface RequestLog {
  /** Every request so far, oldest first (the control API's `requests`). */
  readonly entries: MutableRequestLogEntry[];
  /** Logs `req` and follows its response: the status and the time it was written, the time it ended. */
  record(req: IncomingMessage, res: ServerResponse): MutableRequestLogEntry;
  /** Something a wait may be waiting for happened: every wait checks its condition again. */
  changed(): void;
  /** Resolves once `check()` holds; rejects after `timeoutMs`, or when the log is closed first. */
  waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void>;
  /** The server closed: every wait still pending rejects. */
  close(): void;
}

/** Creates an empty {@link RequestLog}. @internal */
export function createRequestLog(): RequestLog {
  const entries: MutableRequestLogEntry[] = [];
  const waiters = new Set<() => void>();
  let nextId = 1;
  let closed = false;
  const changed = (): void => {
    for (const waiter of [...waiters]) waiter();
  };
  return {
    entries,
    changed,
    record(req, res) {
      const entry = logEntryFor(nextId++, req.method, req.url, req.headers);
      entries.push(entry);
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
      (res as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = (...args: unknown[]) => {
        entry.status = args[0] as number;
        entry.respondedAt = Date.now();
        changed();
        return writeHead(...args);
      };
      res.on('close', () => {
        entry.endedAt = Date.now();
        changed();
      });
      return entry;
    },
    waitFor: (check, timeoutMs, what) =>
      new Promise((resolve, reject) => {
        if (check()) return resolve();
        const waiter = (): void => {
          if (!closed && !check()) return;
          waiters.delete(waiter);
          clearTimeout(timer);
          if (closed) reject(new Error(`[testServer] closed while waiting for ${what}`));
          else resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`[testServer] timed out after ${timeoutMs} ms waiting for ${what}`));
        }, timeoutMs);
        waiters.add(waiter);
      }),
    close() {
      closed = true;
      changed();
    },
  };
}
