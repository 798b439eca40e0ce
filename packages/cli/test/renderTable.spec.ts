import test from 'ava';
import { renderTable } from '../src/renderTable.js';

const headers = ['NAMESPACE', 'NAME', 'STATUS', 'AGE'];
const rows = [
  { cells: ['default', 'web-1', 'Running', '5m'] },
  { cells: ['kube-system', 'coredns-6d4b75cb6d-abcde', 'CrashLoopBackOff', '12d'], mark: 'updated' as const },
];

test('columns are padded to the widest cell and separated by three spaces, no trailing spaces', (t) => {
  t.deepEqual(renderTable({ headers, rows, width: 200 }), [
    'NAMESPACE     NAME                       STATUS             AGE',
    'default       web-1                      Running            5m',
    'kube-system   coredns-6d4b75cb6d-abcde   CrashLoopBackOff   12d',
  ]);
});

test('a table wider than the terminal shrinks its widest columns, marking cut cells with …', (t) => {
  const lines = renderTable({ headers, rows, width: 50 });
  t.deepEqual(lines, [
    'NAMESPACE     NAME            STATUS           AGE',
    'default       web-1           Running          5m',
    'kube-system   coredns-6d4b…   CrashLoopBack…   12d',
  ]);
  for (const line of lines) t.true(line.length <= 50, line);
});

test('no line is ever longer than the width, however narrow', (t) => {
  for (const width of [10, 20, 33]) for (const line of renderTable({ headers, rows, width })) t.true(line.length <= width, `${width}: ${line}`);
});

test('the mark column flags changes; colour only when asked', (t) => {
  const marked = [
    { cells: ['a', 'x', 'Running', '1s'], mark: 'added' as const },
    { cells: ['a', 'y', 'Running', '1s'], mark: 'deleted' as const },
    { cells: ['a', 'z', 'Running', '1s'] },
  ];
  t.deepEqual(renderTable({ headers, rows: marked, width: 80, markColumn: true }), [
    '  NAMESPACE   NAME   STATUS    AGE',
    '+ a           x      Running   1s',
    '- a           y      Running   1s',
    '  a           z      Running   1s',
  ]);
  const colored = renderTable({ headers, rows: marked, width: 80, color: true });
  t.is(colored[1], '\x1b[32ma           x      Running   1s\x1b[0m');
  t.is(colored[2], '\x1b[31;9ma           y      Running   1s\x1b[0m');
  t.is(colored[3], 'a           z      Running   1s');
});

test('an empty table is its header', (t) => {
  t.deepEqual(renderTable({ headers: ['NAME', 'AGE'], rows: [], width: 80 }), ['NAME   AGE']);
});

test('columns in keep are never cut: the others give up room first', (t) => {
  const lines = renderTable({ headers, rows, width: 50, keep: new Set([1]) });
  t.deepEqual(lines, [
    'NAMESP…   NAME                       STATUS    AGE',
    'default   web-1                      Running   5m',
    'kube-s…   coredns-6d4b75cb6d-abcde   CrashL…   12d',
  ]);
  for (const line of lines) t.true(line.length <= 50, line);
});
