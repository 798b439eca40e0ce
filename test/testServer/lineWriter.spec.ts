import test from 'ava';
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { createLineWriter } from '../../src/testServer/lineWriter.js';

/** A response whose client reads only when told to. */
function slowResponse() {
  const received: string[] = [];
  let release: (() => void) | undefined;
  const sink = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString('utf8'));
      release = callback;
    },
  });
  return {
    res: sink as unknown as ServerResponse,
    received,
    /** The client reads what was written last. */
    read() {
      const go = release;
      release = undefined;
      go?.();
    },
  };
}

const line = (i: number): string => `{"type":"ADDED","object":{"n":${i},"pad":"${'p'.repeat(1000)}"}}\n`;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('sendAll takes lines from the iterable only as the client reads them, and lines sent meanwhile follow them', async (t) => {
  const client = slowResponse();
  const writer = createLineWriter(client.res, () => undefined);
  let taken = 0;
  function* lines() {
    for (let i = 0; i < 1000; i++) {
      taken++;
      yield line(i);
    }
  }
  writer.sendAll(lines());
  writer.send('{"type":"BOOKMARK"}\n');
  for (let i = 0; i < 5; i++) await turn();
  // One piece of about 64 KiB is out and unread: the rest of the iterable waits.
  t.is(client.received.length, 1);
  t.true(taken < 100, `took ${taken} lines before the client read anything`);
  while (!client.received.join('').includes('BOOKMARK')) {
    client.read();
    await turn();
  }
  t.is(taken, 1000);
  const text = client.received.join('');
  t.is(text.split('\n').filter(Boolean).length, 1001);
  t.true(text.endsWith('{"type":"BOOKMARK"}\n'));
});
