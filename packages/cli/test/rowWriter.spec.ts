import test from 'ava';
import { createRowWriter } from '../src/rowWriter.js';

test('the header with the first rows; columns as wide as anything so far; the last column unpadded', (t) => {
  const writer = createRowWriter({ headers: ['NAMESPACE', 'NAME', 'AGE'] });
  t.deepEqual(writer.lines([['a', 'one', '5s'], ['b', 'two', '12s']]), ['NAMESPACE   NAME   AGE', 'a           one    5s', 'b           two    12s']);
  t.deepEqual(writer.lines([['a', 'a-much-longer-name', '0s']]), ['a           a-much-longer-name   0s'], 'a wider cell widens its column from its own line');
  t.deepEqual(writer.lines([['b', 'two', '13s']]), ['b           two                  13s'], 'and the column stays that wide');
  t.deepEqual(writer.lines([]), []);
});

test('--no-headers, and widths known up front', (t) => {
  const writer = createRowWriter({ headers: ['EVENT', 'NAME'], noHeaders: true, minWidths: [8] });
  t.deepEqual(writer.lines([['ADDED', 'x']]), ['ADDED      x']);
  t.deepEqual(writer.lines([['MODIFIED', 'x']]), ['MODIFIED   x']);
});

test('an empty last cell leaves no trailing spaces', (t) => {
  t.deepEqual(createRowWriter({ headers: ['NAME', 'VERSION'] }).lines([['node-b', '']]), ['NAME     VERSION', 'node-b']);
});
