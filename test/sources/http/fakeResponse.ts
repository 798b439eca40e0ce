import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';

/** A stand-in for an HTTP response the body readers consume: emit 'data'/'end'/'error' on it; `destroy()` is recorded. */
export function fakeResponse(headers: Record<string, string> = {}): IncomingMessage & EventEmitter {
  return Object.assign(new EventEmitter(), {
    complete: false,
    headers,
    destroyed: false,
    destroy(this: { destroyed: boolean }) {
      this.destroyed = true;
    },
  }) as unknown as IncomingMessage & EventEmitter;
}
