/*
 * `rx-informer watch` on a pipe prints what `kubectl get -w` prints: the table once synced, then a
 * row per change, in the same layout, in every output format. Real kubectl runs against the same
 * in-process API server and sees the same changes; its output is the expected text.
 */
import test, { type ExecutionContext } from 'ava';
import type { JsonObject, ResourceType } from 'rx-informer/test-server';
import { cliCluster, type CliCluster } from './cliCluster.js';
import type { CliRun } from './spawnCli.js';

// No printer columns: the test server's Table (what kubectl prints) is NAME and AGE, and so is ours.
const widgets: ResourceType = { group: 'example.com', version: 'v1', plural: 'widgets', kind: 'Widget', namespaced: true };
const widget = (namespace: string, name: string, spec: Record<string, unknown> = {}): JsonObject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name, namespace, labels: { app: 'demo' } }, spec });

/** Output lines with the AGE at the end of a row (0s, 12s, 3m…) made uniform: the two clients read the clock at different moments. */
const rows = (text: string): string[] => text.split('\n').filter((line) => line !== '').map((line) => line.replace(/ \d+[smhdy](\d+[smh])?$/, ' <age>'));

/** Makes the same four changes visible to both clients, each after both have printed the one before (so neither merges two). */
async function sameChanges(c: CliCluster, clients: readonly CliRun[], linesPerChange: (n: number) => RegExp): Promise<void> {
  const changes: Array<() => void> = [
    () => void c.server.create('widgets.example.com', widget('b', 'three-has-the-longest-name-by-far')),
    () => void c.server.patch('widgets.example.com', 'a', 'one', { spec: { size: 2 } }),
    () => void c.server.delete('widgets.example.com', 'b', 'two'),
    () => void c.server.create('widgets.example.com', widget('a', 'four')),
  ];
  for (const [i, change] of changes.entries()) {
    change();
    await Promise.all(clients.map((client) => client.waitFor('stdout', linesPerChange(i + 1))));
  }
}

const lineCount = (n: number): RegExp => new RegExp(`^(?:[^\\n]*\\n){${n}}`);

async function seeded(t: ExecutionContext): Promise<CliCluster> {
  const c = await cliCluster(t, { resources: [widgets] });
  c.server.create('widgets.example.com', widget('a', 'one', { size: 1 }));
  c.server.create('widgets.example.com', widget('b', 'two'));
  return c;
}

test.serial('the table, then one row per add, update and delete, laid out as kubectl get -w lays it out; messages on stderr', async (t) => {
  const c = await seeded(t);
  const ours = c.cli(['watch', 'widgets', '-A']);
  const kubectl = c.kubectl(['get', 'widgets', '-A', '-w']);
  await Promise.all([ours, kubectl].map((client) => client.waitFor('stdout', lineCount(3))));
  await ours.waitFor('stderr', /^synced 2 widgets in [\d.]+s \(1 page\) at resourceVersion \d+$/m);
  await sameChanges(c, [ours, kubectl], (n) => lineCount(3 + n));
  t.deepEqual(rows(ours.stdout()), rows(kubectl.stdout()));
  t.deepEqual(rows(ours.stdout()).slice(0, 4), [
    'NAMESPACE   NAME   AGE',
    'a           one    <age>',
    'b           two    <age>',
    'b           three-has-the-longest-name-by-far   <age>',
  ], 'a longer name widens the column from its row on, as kubectl does');
  t.false(ours.stdout().includes('\x1b'), 'no escapes on a pipe');
  t.notRegex(ours.stdout(), /synced|watching|events\/s/, 'stdout has rows only');
});

test.serial('--output-watch-events adds kubectl\'s EVENT column: ADDED for the list, then ADDED, MODIFIED, DELETED', async (t) => {
  const c = await seeded(t);
  const ours = c.cli(['watch', 'widgets', '-A', '--output-watch-events']);
  const kubectl = c.kubectl(['get', 'widgets', '-A', '-w', '--output-watch-events']);
  await Promise.all([ours, kubectl].map((client) => client.waitFor('stdout', lineCount(3))));
  await sameChanges(c, [ours, kubectl], (n) => lineCount(3 + n));
  t.deepEqual(rows(ours.stdout()), rows(kubectl.stdout()));
  t.deepEqual(rows(ours.stdout()).map((line) => line.split(/ +/)[0]), ['EVENT', 'ADDED', 'ADDED', 'ADDED', 'MODIFIED', 'DELETED', 'ADDED']);
});

test.serial('-o name prints kind.group/name per change, as kubectl does; --no-headers drops the header', async (t) => {
  const c = await seeded(t);
  const ours = c.cli(['watch', 'widgets', '-A', '-o', 'name']);
  const kubectl = c.kubectl(['get', 'widgets', '-A', '-w', '-o', 'name']);
  const bare = c.cli(['watch', 'widgets', '-A', '--no-headers']);
  await Promise.all([ours, kubectl, bare].map((client) => client.waitFor('stdout', lineCount(2))));
  await sameChanges(c, [ours, kubectl, bare], (n) => lineCount(2 + n));
  t.is(ours.stdout(), kubectl.stdout());
  t.deepEqual(ours.stdout().split('\n').slice(0, 3), ['widget.example.com/one', 'widget.example.com/two', 'widget.example.com/three-has-the-longest-name-by-far']);
  t.deepEqual(rows(bare.stdout()).map((line) => line.split(/ +/)[1]), ['one', 'two', 'three-has-the-longest-name-by-far', 'one', 'two', 'four']);
});

test.serial('-o json writes one object per line; with --output-watch-events, kubectl\'s {"type","object"} lines', async (t) => {
  const c = await seeded(t);
  const ours = c.cli(['watch', 'widgets', '-A', '-o', 'json']);
  const events = c.cli(['watch', 'widgets', '-A', '-o', 'json', '--output-watch-events']);
  const kubectl = c.kubectl(['get', 'widgets', '-A', '-w', '-o', 'json', '--output-watch-events']);
  await Promise.all([ours, events, kubectl].map((client) => client.waitFor('stdout', lineCount(2))));
  await sameChanges(c, [ours, events, kubectl], (n) => lineCount(2 + n));
  const parse = (text: string): unknown[] => text.trim().split('\n').map((line) => JSON.parse(line) as unknown);
  t.deepEqual(parse(events.stdout()), parse(kubectl.stdout()));
  t.deepEqual(parse(ours.stdout()), parse(kubectl.stdout()).map((event) => (event as { object: unknown }).object));
  t.deepEqual((parse(events.stdout()) as Array<{ type: string }>).map((e) => e.type), ['ADDED', 'ADDED', 'ADDED', 'MODIFIED', 'DELETED', 'ADDED']);
  t.regex(ours.stderr(), /^synced 2 widgets/m);
});

test.serial('-o yaml writes each object as a YAML document, separated by ---, as kubectl writes them', async (t) => {
  const c = await seeded(t);
  c.server.create('configmaps', {
    metadata: { name: 'tricky', namespace: 'a', annotations: { note: 'a: b', empty: '' } },
    data: {
      yes: 'yes', true: 'true', number: '1.5', octal: '0755', spaced: ' x', hash: '#x', dash: '- x', multi: 'one\ntwo\n', tilde: '~', plain: 'registry.example.com/a:1.2.0', null: 'null',
      a10: 'ten', a2: 'two', A: 'upper', _x: 'under', 'app.kubernetes.io/name': "it's", date: '2026-01-02', hex: '0x1F', quote: '"q"', colon: 'a:b', unkeyed: 'key: value',
      long: 'a sentence long enough to go past the eightieth column of the emitter so that it has to fold at one of its spaces, twice over if need be',
      keep: 'kept\n\n', strip: 'no newline\nat the end', indented: '  starts with spaces\nthen not',
    },
  });
  const ours = c.cli(['watch', 'configmaps', '-n', 'a', '-o', 'yaml']);
  const kubectl = c.kubectl(['get', 'configmaps', '-n', 'a', '-w', '-o', 'yaml']);
  await Promise.all([ours, kubectl].map((client) => client.waitFor('stdout', /\n {2}uid: \S+\n$/)));
  c.server.patch('configmaps', 'a', 'tricky', { data: { more: '42' } });
  // Both documents whole: the second ends with its metadata's uid (kubectl writes a document in pieces).
  await Promise.all([ours, kubectl].map((client) => client.waitFor('stdout', /more: "42"[\s\S]*\n {2}uid: \S+\n$/)));
  t.is(ours.stdout(), kubectl.stdout());
  t.regex(ours.stdout(), /\n---\napiVersion: v1\n/);
});

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.serial('an empty list in a table: kubectl get\'s "No resources found" line on stderr, stdout empty; for -o name or json neither says it', async (t) => {
  const c = await cliCluster(t);
  c.server.create('pods', { metadata: { name: 'elsewhere', namespace: 'default', labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } });
  for (const args of [['pods', '-n', 'does-not-exist'], ['pods', '-A', '-l', 'app=none'], ['namespaces', '-l', 'app=none'], ['pods', '-n', 'does-not-exist', '-o', 'wide', '--no-headers']]) {
    // kubectl get (without -w, which says nothing at all) is the oracle for the initial list.
    const kubectl = c.kubectl(['get', ...args]);
    t.is(await kubectl.exit, 0, kubectl.stderr());
    t.regex(kubectl.stderr(), /^No resources found/, 'the control: kubectl says it');
    const ours = c.cli(['watch', ...args]);
    await ours.waitFor('stderr', new RegExp(`^${escaped(kubectl.stderr().trim())}$`, 'm'));
    ours.kill();
    t.is(await ours.exit, 0);
    t.is(ours.stdout(), kubectl.stdout(), args.join(' '));
    t.is(ours.stderr().split('\n').filter((line) => line.startsWith('No resources found')).length, 1, 'once');
  }
  for (const output of ['name', 'json']) {
    const kubectl = c.kubectl(['get', 'pods', '-n', 'does-not-exist', '-o', output]);
    t.is(await kubectl.exit, 0);
    t.notRegex(kubectl.stderr(), /No resources found/);
    const ours = c.cli(['watch', 'pods', '-n', 'does-not-exist', '-o', output]);
    await ours.waitFor('stderr', /^synced 0 pods/m);
    ours.kill();
    t.is(await ours.exit, 0);
    t.notRegex(ours.stderr(), /No resources found/, `-o ${output}`);
    t.is(ours.stdout(), '');
  }
});
