import test from 'ava';
import { createLineReader } from '../../../src/sources/http/lineReader.js';
import { TransportError } from '../../../src/errors.js';

const reader = (max = 1024) => {
  const lines: string[] = [];
  return { lines, r: createLineReader(max, (l) => lines.push(l)) };
};

test('several lines in one chunk, each decoded from the chunk', (t) => {
  const { lines, r } = reader();
  t.true(r.push(Buffer.from('{"a":1}\n{"b":2}\n{"c"')));
  t.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  t.is(r.pending(), 4);
  t.true(r.push(Buffer.from(':3}\n')));
  t.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  t.is(r.pending(), 0);
});

test('a line split across many chunks, including inside a multi-byte UTF-8 character', (t) => {
  const { lines, r } = reader();
  const bytes = Buffer.from('{"name":"zürich-🚀"}\n');
  for (let i = 0; i < bytes.length; i++) {
    const completed = r.push(bytes.subarray(i, i + 1));
    t.is(completed, i === bytes.length - 1);
  }
  t.deepEqual(lines, ['{"name":"zürich-🚀"}']);
});

test('CRLF and empty lines', (t) => {
  const { lines, r } = reader();
  r.push(Buffer.from('a\r\n\nb\n'));
  t.deepEqual(lines, ['a', 'b']);
});

test('an unfinished line longer than maxLineBytes throws TransportError (lineTooLong), complete lines within the limit pass', (t) => {
  const { lines, r } = reader(8);
  r.push(Buffer.from('12345678\n'));
  t.deepEqual(lines, ['12345678']);
  r.push(Buffer.from('12345'));
  t.throws(() => r.push(Buffer.from('6789')), { instanceOf: TransportError, message: '[informer] watch event line exceeds 8 bytes' });
  const { r: r2 } = reader(8);
  t.throws(() => r2.push(Buffer.from('123456789\n')), { instanceOf: TransportError, message: /exceeds 8 bytes/ });
});
