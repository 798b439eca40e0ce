import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer } from '../src/testing/index.js';

const root = new URL('../', import.meta.url);

/** Runs an example with tsx, collecting stdout lines; resolves once `until` matches the output so far. */
function runExample(file: string, env: Record<string, string>, until: (lines: string[]) => boolean) {
  const child = spawn(process.execPath, ['--import=tsx', file], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<string[]>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} timed out; stdout: ${lines.join(' | ')}; stderr: ${stderr}`)), 20_000);
    child.stdout.on('data', (chunk: Buffer) => {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      if (until(lines)) {
        clearTimeout(timer);
        resolve(lines);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!until(lines)) reject(new Error(`${file} exited ${code}; stdout: ${lines.join(' | ')}; stderr: ${stderr}`));
    });
  });
  return { child, lines, done };
}

test('the README kubeconfig example watches ConfigMaps from the server $KUBECONFIG names', async (t) => {
  const server = await createTestApiServer();
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-example-'));
  try {
    for (const name of ['a', 'b', 'c']) server.create('configmaps', { metadata: { name, namespace: 'default' } });
    const kubeconfig = join(dir, 'config');
    await server.writeKubeConfig(kubeconfig);
    const run = runExample('examples/watchConfigMaps.ts', { KUBECONFIG: kubeconfig }, (lines) => lines.includes('synced: 3 ConfigMaps'));
    await run.done;
    server.patch('configmaps', 'default', 'b', { data: { x: '1' } });
    server.delete('configmaps', 'default', 'c');
    await new Promise<void>((resolve, reject) => {
      const check = setInterval(() => run.lines.includes('delete default/c') && (clearInterval(check), resolve()), 10);
      setTimeout(() => (clearInterval(check), reject(new Error(run.lines.join(' | ')))), 10_000);
    });
    run.child.kill();
    t.deepEqual(run.lines, ['add default/a', 'add default/b', 'add default/c', 'synced: 3 ConfigMaps', 'update default/b', 'delete default/c']);
    const readme = await readFile(new URL('README.md', root), 'utf8');
    const block = /<!-- kubeconfig-example:[^\n]*-->\n```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    t.is(block, await readFile(new URL('examples/watchConfigMaps.ts', root), 'utf8'), 'README shows the example as it is');
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
});
