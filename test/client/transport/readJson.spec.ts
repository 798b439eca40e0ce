import test from 'ava';
import { Observable } from 'rxjs';
import { TransportError } from '../../../src/errors.js';
import { readJson } from '../../../src/client/transport/readJson.js';
import { fakeResponse } from '../../sources/http/fakeResponse.js';

test('a body over the limit: TransportError (bodyTooLarge) at the chunk that crosses it, the response destroyed, nothing more kept', async (t) => {
  const response = fakeResponse();
  let error: unknown;
  let value: unknown;
  new Observable<unknown>((subscriber) => readJson(response, subscriber, (v) => v, 'list', { bytes: 10, option: 'maxListBytes' })).subscribe({ next: (v) => (value = v), error: (e) => (error = e) });
  await response.emit('data', Buffer.from('{"items":'));
  t.is(error, undefined, '9 bytes are within 10');
  await response.emit('data', Buffer.from('[]}'));
  t.true(error instanceof TransportError);
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 10, verb: 'list', message: '[informer] list response body exceeds 10 bytes (maxListBytes)' });
  t.true(response.destroyed);
  await response.emit('end');
  t.is(value, undefined);
});

test('a body whose Content-Length is over the limit fails before a byte is read', (t) => {
  const response = fakeResponse({ 'content-length': String(5 * 1024 ** 3) });
  let error: unknown;
  new Observable<unknown>((subscriber) => readJson(response, subscriber, (v) => v, 'discover', { bytes: 1024 })).subscribe({ error: (e) => (error = e) });
  t.like(error as TransportError, { reason: 'bodyTooLarge', maxBodyBytes: 1024, message: '[informer] discover response body exceeds 1024 bytes' });
  t.true(response.destroyed);
  t.is(response.pulls, 0, 'no body is read');
});

test('a body exactly at the limit is read', async (t) => {
  let value: unknown;
  const ok = fakeResponse({ 'content-length': '12' });
  new Observable<unknown>((subscriber) => readJson(ok, subscriber, (v) => v, 'list', { bytes: 12 })).subscribe((v) => (value = v));
  await ok.emit('data', Buffer.from('{"items":[]}'));
  await ok.emit('end');
  t.deepEqual(value, { items: [] });
});
