/**
 * `npm run screenshot`: regenerates docs/demo.svg, the README's picture of the live view, from a
 * real run of `npm start` on a 120×32 tmux terminal: it waits until the churn is under way and the
 * table shows fresh changes (an added and a deleted row among them), captures the pane with its colours (`tmux capture-pane -e`), types
 * Ctrl-C, and renders the capture with scripts/ansiToSvg.ts.
 *
 * Needs tmux (Debian: apt-get install tmux). It runs its own tmux server on a private socket and
 * without a config file, so a user's tmux is not touched. `npm run screenshot -- <path>` writes
 * elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ansiToSvg } from './ansiToSvg.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const output = process.argv[2] ?? fileURLToPath(new URL('../docs/demo.svg', import.meta.url));
const columns = 120;
const rows = 32;
const socket = `rx-informer-screenshot-${process.pid}`;
const env = { ...process.env };
delete env['NO_COLOR'];
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { cwd: root, env, encoding: 'utf8' });

/** Polls `check` every 200 ms until it returns a value, for at most `ms`. */
async function until<T>(what: string, ms: number, check: () => T | undefined): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`screenshot: no ${what} within ${ms / 1000} s; the pane shows:\n${tmux('capture-pane', '-p', '-t', 'demo')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

try {
  execFileSync('tmux', ['-V'], { stdio: 'ignore' });
} catch {
  console.error('screenshot: tmux is needed (Debian: apt-get install tmux)');
  process.exit(1);
}
tmux('new-session', '-d', '-s', 'demo', '-x', String(columns), '-y', String(rows), 'npm start --silent -- --pods 5000 --rate 300');
try {
  // Steady churn (a thousand events: a few seconds of it, past the first burst) and, among the
  // fresh rows, one of each kind the picture is meant to show: added (green) and deleted (struck
  // through), as the SVG will draw them. (Waiting for any coloured row took a frame of updates only.)
  const svg = await until('busy live view with an added and a deleted row', 60_000, () => {
    const plain = tmux('capture-pane', '-p', '-t', 'demo');
    const counts = /events\/s · add ([\d,]+) · update ([\d,]+) · delete ([\d,]+)/.exec(plain);
    const events = counts ? counts.slice(1).reduce((sum, n) => sum + Number(n.replace(/,/g, '')), 0) : 0;
    if (!/^● watching at resourceVersion/m.test(plain) || events < 1000) return undefined;
    const drawn = ansiToSvg(tmux('capture-pane', '-p', '-e', '-t', 'demo'), { columns, title: 'npm start' });
    return /fill="#99cc99">\+ /.test(drawn) && /text-decoration="line-through">- /.test(drawn) ? drawn : undefined;
  });
  writeFileSync(output, svg);
  console.log(`screenshot: wrote ${output}`);
  tmux('send-keys', '-t', 'demo', 'C-c');
  await until('end of the demo after Ctrl-C', 10_000, () => (/^npm start/.test(tmux('list-panes', '-a', '-F', '#{pane_current_command}')) ? undefined : true)).catch(() => undefined);
} finally {
  try {
    tmux('kill-server');
  } catch {
    // already gone with its last session
  }
}
