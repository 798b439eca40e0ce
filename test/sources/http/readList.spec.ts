import test from 'ava';
import { Observable } from 'rxjs';
import { TransportError } from '../../../src/errors.js';
import { readList } from '../../../src/sources/http/readList.js';
import { fakeResponse } from './fakeResponse.js';

const MiB = 1024 * 1024;
// About 6 MiB: past the 4 MiB after which readList parses the items as they arrive.
const item = (i: number): string => `{"metadata":{"name":"c${i}","namespace":"default"},"data":{"v":"${'x'.repeat(1000)}"}}`;
const bigList = Buffer.from(`{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7"},"items":[${Array.from({ length: 6000 }, (_, i) => item(i)).join(',')}]}`);

/** Feeds `body` to readList in 64 KiB chunks under `limit`; what came out, and the byte count fed when the error came. */
async function feed(body: Buffer, limit: { bytes: number; option?: string }, headers: Record<string, string> = {}) {
  const response = fakeResponse(headers);
  const heads: unknown[] = [];
  const values: Array<{ items: unknown[] } & Record<string, unknown>> = [];
  let completed = false;
  let error: unknown;
  let fed = 0;
  let erroredAt = -1;
  new Observable<unknown>((subscriber) => readList(response, subscriber, (v) => v, 'list', (head) => heads.push(head), limit)).subscribe({
    next: (v) => values.push(v as { items: unknown[] }),
    complete: () => (completed = true),
    error: (e) => {
      error = e;
      erroredAt = fed;
    },
  });
  for (let i = 0; i < body.length && !response.destroyed; i += 64 * 1024) {
    fed = Math.min(body.length, i + 64 * 1024);
    await response.emit('data', body.subarray(i, i + 64 * 1024));
  }
  if (!response.destroyed) {
    await response.emit('end');
  }
  return { response, heads, values, completed, error, erroredAt };
}

test('a streamed list body over the limit: TransportError (bodyTooLarge) naming the cap at the chunk that crosses it, the response destroyed; only parts of the items came before it, never the list\'s end', async (t) => {
  t.true(bigList.length > 5 * MiB + 64 * 1024);
  const { response, heads, values, completed, error, erroredAt } = await feed(bigList, { bytes: 5 * MiB, option: 'maxListBytes' });
  t.is(heads.length, 1, 'the head had arrived: the items were streaming');
  t.true(error instanceof TransportError);
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 5 * MiB, verb: 'list', message: `[informer] list response body exceeds ${5 * MiB} bytes (maxListBytes)` });
  t.true(erroredAt > 5 * MiB && erroredAt <= 5 * MiB + 64 * 1024, `failed at byte ${erroredAt}, the chunk that crosses the cap`);
  t.true(response.destroyed);
  t.false(completed);
  const whole = JSON.parse(bigList.toString('utf8')) as { items: unknown[] };
  const parted = values.flatMap((v) => v.items);
  t.true(parted.length < whole.items.length, `${parted.length} items in parts`);
  t.deepEqual(parted, whole.items.slice(0, parted.length), 'the parts are the list\'s first items, in order');
});

test('a list whose Content-Length is over the limit fails before a byte is read', (t) => {
  const response = fakeResponse({ 'content-length': String(5 * 1024 ** 3) });
  let error: unknown;
  new Observable<unknown>((subscriber) => readList(response, subscriber, (v) => v, 'list', undefined, { bytes: 1024, option: 'maxListBytes' })).subscribe({ error: (e) => (error = e) });
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 1024, message: '[informer] list response body exceeds 1024 bytes (maxListBytes)' });
  t.true(response.destroyed);
  t.is(response.pulls, 0, 'no body is read');
});

test('a streamed list body exactly at the limit is read whole: its parts, then the rest with the list\'s own members', async (t) => {
  const { heads, values, completed, error } = await feed(bigList, { bytes: bigList.length }, { 'content-length': String(bigList.length) });
  t.is(error, undefined);
  t.true(completed);
  t.is(heads.length, 1);
  const whole = JSON.parse(bigList.toString('utf8')) as { items: unknown[] };
  t.true(values.length > 1, `${values.length} parts`);
  t.true(values.slice(0, -1).every((v) => v.items.length >= 500), 'every part but the last holds at least 500 items');
  t.deepEqual({ ...values.at(-1)!, items: values.flatMap((v) => v.items) }, whole);
});
