/**
 * How the floors (bench/contenders/floor.ts) follow a watch over `node:http`: lines split on `\n`,
 * each `JSON.parse`d, every MODIFIED object handed on, nothing else.
 */
import type { IncomingMessage } from 'node:http';

/** One watch event as the floors read it. */
export interface FloorEvent {
  readonly type: string;
  readonly object: { readonly metadata: { readonly namespace?: string; readonly name: string; readonly resourceVersion?: string } };
}

/**
 * Opens the watch at `resourceVersion` and reads it; when the server ends it, opens it again from
 * the last resourceVersion seen, as every informer does (kube-apiserver force-closes a watcher it
 * finds slow, and ends every watch at its timeout). Resolves once the first watch is open.
 *
 * @param open sends the watch request from a resourceVersion.
 * @param onModified every MODIFIED object, in order.
 * @param onError a watch that could not be opened again, or an ERROR event (a resourceVersion too
 * old to watch from would need a new list, which a floor does not do).
 */
export async function followWatch(
  open: (resourceVersion: string) => Promise<IncomingMessage>,
  resourceVersion: string,
  onModified: (object: FloorEvent['object']) => void,
  onError: (error: Error) => void,
): Promise<void> {
  let last = resourceVersion;
  const read = (watch: IncomingMessage): void => {
    let rest: Buffer | undefined;
    watch.on('data', (chunk: Buffer) => {
      const buffer = rest ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (let eol = buffer.indexOf(10, from); eol >= 0; eol = buffer.indexOf(10, from)) {
        const event = JSON.parse(buffer.toString('utf8', from, eol)) as FloorEvent;
        if (event.type === 'ERROR') return onError(new Error(`the watch from resourceVersion ${last} ended with ${JSON.stringify(event.object)}`));
        if (event.type === 'MODIFIED') onModified(event.object);
        last = event.object.metadata.resourceVersion ?? last;
        from = eol + 1;
      }
      rest = from < buffer.length ? buffer.subarray(from) : undefined;
    });
    watch.on('end', () => void open(last).then(read, onError));
  };
  read(await open(resourceVersion));
}
