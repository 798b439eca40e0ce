import test from 'ava';
import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { Observable } from 'rxjs';
import { TransportError } from '../../../src/errors.js';
import { readJson } from '../../../src/sources/http/readJson.js';

function fakeResponse(headers: Record<string, string> = {}): IncomingMessage & EventEmitter {
  return Object.assign(new EventEmitter(), {
    complete: false,
    headers,
    destroyed: false,
    destroy(this: { destroyed: boolean }) {
      this.destroyed = true;
    },
  }) as unknown as IncomingMessage & EventEmitter;
}

/** Feeds `body` to readJson in chunks of `size` bytes; returns what peekHead saw and the parsed body. */
function feed(body: string, size: number): { heads: unknown[]; value: unknown; peekedAtByte: number } {
  const response = fakeResponse();
  const heads: unknown[] = [];
  let value: unknown;
  let fed = 0;
  let peekedAtByte = -1;
  new Observable<unknown>((subscriber) => {
    readJson(response, subscriber, (v) => v, 'list', (head) => {
      heads.push(head);
      peekedAtByte = fed;
    });
  }).subscribe((v) => (value = v));
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += size) {
    fed = Math.min(bytes.length, i + size);
    response.emit('data', bytes.subarray(i, i + size));
  }
  (response as { complete: boolean }).complete = true;
  response.emit('end');
  return { heads, value, peekedAtByte };
}

const list = `{"kind":"ConfigMapList","apiVersion":"v1","metadata":{"resourceVersion":"7","continue":"abc"},"items":[${Array.from({ length: 50 }, (_, i) => `{"metadata":{"name":"c${i}"}}`).join(',')}]}`;

test('peekHead gets the parsed head once, as soon as "items" has arrived, whatever the chunking', (t) => {
  for (const size of [1, 3, 7, 8, 9, 64, 100_000]) {
    const { heads, value, peekedAtByte } = feed(list, size);
    t.deepEqual(heads, [{ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '7', continue: 'abc' }, items: [] }], `chunks of ${size}`);
    t.is((value as { items: unknown[] }).items.length, 50);
    // Never later than the chunk that completes `"items":`.
    t.true(peekedAtByte <= list.indexOf('"items":') + 8 + size, `chunks of ${size}: peeked at byte ${peekedAtByte}`);
  }
});

test('no peek for a body without a parsable head before "items", and the body is still read', (t) => {
  const odd = `{"metadata":{"x":{"items":1}},"items":[]}`;
  const a = feed(odd, 5);
  t.deepEqual(a.heads, [], 'the first "items": is a nested key: the prefix does not parse');
  t.deepEqual(a.value, { metadata: { x: { items: 1 } }, items: [] });
  const b = feed('{"kind":"Status","code":200}', 4);
  t.deepEqual(b.heads, []);
  t.deepEqual(b.value, { kind: 'Status', code: 200 });
});

test('a body over the limit: TransportError (bodyTooLarge) at the chunk that crosses it, the response destroyed, nothing more kept', (t) => {
  const response = fakeResponse();
  let error: unknown;
  let value: unknown;
  new Observable<unknown>((subscriber) => readJson(response, subscriber, (v) => v, 'list', undefined, { bytes: 10, option: 'maxListBytes' })).subscribe({ next: (v) => (value = v), error: (e) => (error = e) });
  response.emit('data', Buffer.from('{"items":'));
  t.is(error, undefined, '9 bytes are within 10');
  response.emit('data', Buffer.from('[]}'));
  t.true(error instanceof TransportError);
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 10, verb: 'list', message: '[informer] list response body exceeds 10 bytes (maxListBytes)' });
  t.true(response.destroyed);
  response.emit('end');
  t.is(value, undefined);
});

test('a body whose Content-Length is over the limit fails before a byte is read', (t) => {
  const response = fakeResponse({ 'content-length': String(5 * 1024 ** 3) });
  let error: unknown;
  new Observable<unknown>((subscriber) => readJson(response, subscriber, (v) => v, 'discover', undefined, { bytes: 1024 })).subscribe({ error: (e) => (error = e) });
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 1024, message: '[informer] discover response body exceeds 1024 bytes' });
  t.true(response.destroyed);
  t.is(response.listenerCount('data'), 0, 'no body is read');
});

test('a body exactly at the limit is read', (t) => {
  let value: unknown;
  const ok = fakeResponse({ 'content-length': '12' });
  new Observable<unknown>((subscriber) => readJson(ok, subscriber, (v) => v, 'list', undefined, { bytes: 12 })).subscribe((v) => (value = v));
  ok.emit('data', Buffer.from('{"items":[]}'));
  ok.emit('end');
  t.deepEqual(value, { items: [] });
});
