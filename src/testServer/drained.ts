import type { ServerResponse } from 'node:http';

/**
 * Resolves once `res` can take more data (`drain`) or has closed, whichever comes first: how a
 * streamed body waits for a slow client without buffering ahead of it.
 *
 * @internal
 */
export function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
