/**
 * The watchdog (src/envtest/watchdog.ts) without real binaries: a parent process starts it as
 * startControlPlane does, starts a stand-in "server" in its own process group with the control
 * plane's folder on its command line, and is then killed with SIGKILL. The stand-in and the folder
 * must be gone.
 */
import test from 'ava';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { processAlive as alive } from '../helpers/processAlive.js';

const watchdog = fileURLToPath(new URL('../../src/envtest/watchdog.ts', import.meta.url));
const until = async (what: () => boolean, ms: number): Promise<boolean> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
};

/** Starts the parent; resolves with its PID and the PIDs it reported (watchdog, told, untold stand-ins). */
function parent(dir: string): Promise<{ parent: number; watchdog: number; told: number; untold: number }> {
  const script = join(dir, 'parent.mjs');
  // The "untold" stand-in's PID never reaches the watchdog: only its command line names the folder.
  writeFileSync(
    script,
    `import { spawn } from 'node:child_process';
     const dir = process.argv[2];
     const dog = spawn(process.execPath, ['--no-warnings', ${JSON.stringify(watchdog)}, dir], { detached: true, stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
     dog.unref();
     await new Promise((resolve) => dog.once('message', resolve));
     dog.channel.unref();
     const server = (tag) => { const c = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '--data-dir=' + dir + '/' + tag], { detached: true, stdio: 'ignore' }); c.unref(); return c.pid; };
     const told = server('told'); dog.send({ pid: told });
     const untold = server('untold');
     console.log(JSON.stringify({ parent: process.pid, watchdog: dog.pid, told, untold }));
     setInterval(() => {}, 1000);`,
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.setEncoding('utf8');
    child.stdout.once('data', (line: string) => resolve(JSON.parse(line) as { parent: number; watchdog: number; told: number; untold: number }));
    child.once('error', reject);
  });
}

test('kill -9 of the test process: the watchdog kills what it started (told of or not) and removes the folder', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rx-envtest-dog-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const pids = await parent(dir);
  t.teardown(() => [pids.told, pids.untold, pids.watchdog].forEach((pid) => alive(pid) && process.kill(pid, 'SIGKILL')));
  t.true(alive(pids.told) && alive(pids.untold) && alive(pids.watchdog));
  await new Promise((resolve) => execFile('kill', ['-9', String(pids.parent)], resolve));
  t.true(await until(() => !alive(pids.told) && !alive(pids.untold) && !alive(pids.watchdog), 10_000), 'stand-ins and watchdog gone');
  t.true(await until(() => !existsSync(dir), 5_000), 'folder removed');
});
