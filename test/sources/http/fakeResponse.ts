import type { TransportResponse } from '../../../src/client/transport/httpTransport.js';

/** A transport response whose body the test feeds: `emit('data', chunk)` and `emit('end')` resolve once the reader has dealt with what they handed over. */
export interface FakeResponse extends TransportResponse {
  emit(event: 'data', chunk: Uint8Array): Promise<void>;
  emit(event: 'end'): Promise<void>;
  /** The reader stopped reading (the body was cancelled). */
  readonly destroyed: boolean;
  /** How many times the reader asked for a chunk. */
  readonly pulls: number;
}

/** A stand-in for a transport response the body readers consume; `headers` by lower-case name. */
export function fakeResponse(headers: Record<string, string> = {}): FakeResponse {
  const queue: IteratorResult<Uint8Array>[] = [];
  let waiting: ((result: IteratorResult<Uint8Array>) => void) | undefined;
  let dealtWith: Array<() => void> = [];
  let destroyed = false;
  let pulls = 0;
  const settle = (): void => {
    const resolve = dealtWith;
    dealtWith = [];
    for (const done of resolve) done();
  };
  const iterator: AsyncIterator<Uint8Array> = {
    next: () => {
      pulls++;
      settle();
      const ready = queue.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => (waiting = resolve));
    },
    return: () => {
      destroyed = true;
      settle();
      return Promise.resolve({ done: true, value: undefined });
    },
  };
  const deliver = (result: IteratorResult<Uint8Array>): Promise<void> => {
    if (destroyed) return Promise.resolve();
    // A chunk is dealt with when the reader asks for the next one or stops; the end when the reader's microtasks have run.
    const handled = result.done ? new Promise<void>((resolve) => setImmediate(resolve)) : new Promise<void>((resolve) => dealtWith.push(resolve));
    const reader = waiting;
    waiting = undefined;
    if (reader !== undefined) reader(result);
    else queue.push(result);
    return handled;
  };
  return {
    status: 200,
    header: (name) => headers[name.toLowerCase()],
    body: { [Symbol.asyncIterator]: () => iterator },
    emit: (event: 'data' | 'end', chunk?: Uint8Array) => deliver(event === 'end' ? { done: true, value: undefined } : { done: false, value: chunk! }),
    get destroyed() {
      return destroyed;
    },
    get pulls() {
      return pulls;
    },
  } as FakeResponse;
}
