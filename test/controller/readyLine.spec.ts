import test from 'ava';
import { readyLine } from '../../src/controller/queue/readyLine.js';

test('readyLine: highest priority first, first come first served within one; a raise moves a key; lower puts do nothing', (t) => {
  const line = readyLine();
  line.put('a', -100);
  line.put('b', -100);
  line.put('c', 0);
  line.put('b', 5); // raised
  line.put('c', -100); // lower: stays at 0
  line.put('d', 0);
  t.is(line.size, 4);
  t.deepEqual([...line.depths()].sort(), [[-100, 1], [0, 2], [5, 1]]);
  const order: string[] = [];
  for (let key = line.take(); key !== undefined; key = line.take()) order.push(key);
  t.deepEqual(order, ['b', 'c', 'd', 'a']);
  t.is(line.size, 0);
});

test('readyLine: a removed key is skipped; a key put back after a take goes to the back; 100,000 keys in linear time', (t) => {
  const line = readyLine();
  line.put('a', 0);
  line.put('b', 0);
  line.remove('a');
  t.is(line.take(), 'b');
  line.put('a', 0);
  line.put('c', 0);
  t.is(line.take(), 'a');
  line.clear();
  t.is(line.take(), undefined);
  for (let i = 0; i < 100_000; i++) line.put(`k${i}`, i % 2 === 0 ? 0 : -100);
  let taken = 0;
  let last = '';
  for (let key = line.take(); key !== undefined; key = line.take()) (taken++, (last = key));
  t.is(taken, 100_000);
  t.is(last, 'k99999');
});
