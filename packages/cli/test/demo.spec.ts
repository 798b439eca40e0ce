import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cliBin, spawnCli } from './spawnCli.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

test.serial('demo --seconds 3 --pods 300 on a pipe: the pods\' table, then a row per churn event; the rest on stderr; exits 0 by itself', async (t) => {
  const cli = spawnCli(['demo', '--seconds', '3', '--pods', '300']);
  t.teardown(() => cli.kill('SIGKILL'));
  t.is(await cli.exit, 0, cli.stderr());
  const out = cli.stdout();
  const err = cli.stderr();
  t.regex(err, /^demo: in-process API server at http:\/\/127\.0\.0\.1:\d+ · 20 namespaces · 50 nodes · 300 pods · churn ~300 events\/s$/m);
  // Issue 43: the demo printed only a URL; other processes need a kubeconfig (removed when it ends).
  const kubeconfig = /^kubeconfig: (\S+) \(KUBECONFIG=\1 kubectl get pods -A, while the demo runs\)$/m.exec(err)?.[1];
  t.truthy(kubeconfig, err.slice(0, 1000));
  t.false(existsSync(kubeconfig!), 'removed at the end');
  // The churn starts with the server, so the list already sees some of it: about 300 pods.
  const synced = /^synced (\d+) pods in [\d.]+s \(1 page\) at resourceVersion \d+$/m.exec(err);
  t.truthy(synced, err.slice(0, 2000));
  t.true(Math.abs(Number(synced![1]) - 300) < 30, synced![0]);
  t.regex(out, /^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE\n/);
  const rows = out.match(/^\S+ +\S+-[0-9a-f]{8}-\w{5} +[01]\/1 +(Running|ContainerCreating|CrashLoopBackOff) +\d+( \(\S+ ago\))? +\d+s$/gm) ?? [];
  t.is(rows.length, out.trim().split('\n').length - 1, 'every line after the header is a pod row');
  t.true(rows.length > Number(synced![1]), `the list, then a row per change: ${rows.length} rows`);
  const listed = rows.slice(0, Number(synced![1])).map((row) => row.split(/ +/).slice(0, 2).join('/'));
  t.deepEqual(listed, [...listed].sort(), 'the list by key');
  t.true(rows.slice(0, Number(synced![1])).filter((row) => / 1\/1 +Running +0 /.test(row)).length > 200, 'mostly running pods');
  t.regex(err, /^index node \(50 values\): node-\d\d \d+ · /m);
  // The last status line: hundreds of events, of every type, and about 300 pods still there.
  const last = [...err.matchAll(/^watching at resourceVersion \d+ · (\d+) pods · synced in [\d.]+s \(1 page\) · ([\d.]+) events\/s · add (\d+) · update (\d+) · delete (\d+)$/gm)].at(-1);
  t.truthy(last, err.slice(-2000));
  const [, pods, rate, add, update, del] = last!.map(Number);
  t.true(pods! > 250 && pods! < 350, `pods ${pods}`);
  // A row per change, exactly: the churn's rate depends on how loaded the machine is (at load 20 a
  // run of issue 38 printed fewer than 100 changes in its 3 s), what is printed for it does not.
  t.is(rows.length - Number(synced![1]), add! + update! + del!, `rows after the list against add ${add} update ${update} delete ${del}`);
  t.true(rate! > 0 && add! > 0 && update! > 0 && del! > 0, `rate ${rate} add ${add} update ${update} delete ${del}`);
  t.false(out.includes('\x1b') || err.includes('\x1b'));
});

test.serial('demo -o json --output-watch-events streams the churn as kubectl\'s watch events', async (t) => {
  const cli = spawnCli(['demo', '--seconds', '2', '--pods', '50', '--rate', '100', '-o', 'json', '--output-watch-events']);
  t.teardown(() => cli.kill('SIGKILL'));
  t.is(await cli.exit, 0, cli.stderr());
  const lines = cli.stdout().trim().split('\n').map((line) => JSON.parse(line) as { type: string; object: { kind: string; metadata: { namespace: string; name: string } } });
  t.true(lines.length > 50 + 40, `${lines.length} lines`);
  t.deepEqual([...new Set(lines.map((l) => l.type))].sort(), ['ADDED', 'DELETED', 'MODIFIED']);
  t.true(lines.every((l) => l.object.kind === 'Pod' && /^[a-z]+-[0-9a-f]{8}-\w{5}$/.test(l.object.metadata.name)));
  t.regex(cli.stderr(), /^synced 50 pods/m);
});

test.serial('demo on a terminal: redraws in place on the alternate screen, and Ctrl-C restores the terminal and exits 0', async (t) => {
  // Never skipped: util-linux `script` (Debian's essential bsdutils) must be there.
  t.is(spawnSync('script', ['--version']).status, 0, 'util-linux `script` is needed to run the CLI on a pseudo-terminal');
  // util-linux `script` runs the CLI on a pseudo-terminal; Ctrl-C is typed into it.
  const command = `stty cols 120 rows 30; exec node_modules/.bin/node '${cliBin}' demo --pods 1000`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  t.teardown(() => child.kill('SIGKILL'));
  let out = '';
  const exit = new Promise<number | null>((resolve) => child.on('close', resolve)); // once its output is read to the end
  // After the initial clear, one per frame, up to leaving the alternate screen.
  const frames = (): string[] => out.split('\x1b[?25h\x1b[?1049l')[0]!.split('\x1b[H').slice(2);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no live frames:\n${out.slice(-2000)}`)), 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (frames().filter((f) => f.includes('● \x1b') || /watching at resourceVersion/.test(f)).length >= 3) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  child.stdin.write('\x03');
  t.is(await exit, 0);
  t.true(out.startsWith('\x1b[?1049h\x1b[?25l'), 'enters the alternate screen and hides the cursor');
  const live = frames().filter((f) => /watching at resourceVersion/.test(f));
  t.true(live.length >= 3);
  for (const frame of live) {
    const lines = frame.split('\r\n').map((line) => line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''));
    t.true(lines.length <= 30, `${lines.length} lines fit 30 rows`);
    t.true(lines.every((line) => line.length <= 120), 'every line fits 120 columns');
    t.regex(lines[0]!, /^rx-informer watch pods · all namespaces · rx-informer-test @ http:\/\/127\.0\.0\.1:\d+ +\d\d:\d\d:\d\d$/);
    t.true(lines.some((line) => /^index node \(50 values\): /.test(line)));
    t.true(lines.some((line) => /^ {2}NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE$/.test(line)));
    t.regex(lines.at(-1)!, /^\d+ of [\d,]+ shown · newest changes first · Ctrl-C to quit/);
  }
  t.true(out.includes('\x1b[?25h\x1b[?1049l'), 'shows the cursor and leaves the alternate screen');
  t.regex(out.slice(out.lastIndexOf('\x1b[?1049l')), /watching at resourceVersion \d+ · [\d,]+ pods/, 'a summary stays on the terminal');
});
