import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { map, throwError } from 'rxjs';
import { added, listEvents } from '../../src/testing/events.js';
import { marbleSource, runMarbles } from '../../src/testing/marbles.js';
import { configMap } from '../../src/testing/objects.js';
import { stripTypesImport } from '../helpers/stripTypesImport.js';

const exec = promisify(execFile);

test('runMarbles reports a mismatch through the given assertions', (t) => {
  const calls: [unknown, unknown][] = [];
  runMarbles({ deepEqual: (actual, expected) => calls.push([actual, expected]) }, ({ cold, expectObservable }) => {
    expectObservable(cold('-a|', { a: 1 }).pipe(map((x) => x * 2))).toBe('-b|', { b: 3 });
  });
  t.is(calls.length, 1);
  t.notDeepEqual(calls[0]![0], calls[0]![1]);
});

test('runMarbles compares errors by name and message only', (t) =>
  runMarbles(t, ({ expectObservable }) => {
    const thrown = new RangeError('too far');
    expectObservable(throwError(() => thrown)).toBe('#', undefined, new RangeError('too far'));
  }));

test('marbleSource expands array values within one frame', (t) =>
  runMarbles(t, ({ cold, expectObservable }) => {
    const a = configMap('a', { resourceVersion: '1' });
    const [s, p, d] = listEvents([a], '1');
    const b = added(configMap('b'));
    expectObservable(marbleSource(cold, '-L-----b|', { L: listEvents([a], '1'), b })).toBe('-(spd)-b|', { s, p, d, b });
  }));

test('runMarbles takes node:test\'s t: a run passes, and a wrong expectation fails it', async (t) => {
  const run = (fail: boolean) =>
    exec(process.execPath, [stripTypesImport, '--test', '--test-reporter=tap', fileURLToPath(new URL('nodeTestMarbles.fixture.ts', import.meta.url))], {
      env: { ...process.env, MARBLES_FAIL: fail ? '1' : '0' },
      timeout: 60_000,
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code?: number; stdout?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? '' }),
    );
  const [passing, failing] = await Promise.all([run(false), run(true)]);
  t.is(passing.code, 0, passing.stdout);
  t.regex(passing.stdout, /^# pass 2$/m);
  t.not(failing.code, 0);
  t.regex(failing.stdout, /^# pass 1$/m);
  t.regex(failing.stdout, /^# fail 1$/m);
  t.regex(failing.stdout, /not ok \d+ - doubles, on node:test/);
});
