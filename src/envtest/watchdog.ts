/**
 * The watchdog of one control plane: a small Node process in its own session that outlives the test
 * process and cleans up after it when that process dies without calling `stop()` (a `kill -9`, a
 * crash, a test runner that ends its worker). Started by `startControlPlane` with an IPC channel
 * and one argument, the control plane's temporary folder; every process the control plane starts
 * has that folder on its command line (`--data-dir`, `--cert-dir`).
 *
 * When the channel closes (the parent exited, however it exited) or the parent sends `'stop'`, it
 * sends SIGKILL to the processes it was told of (`{ pid }` messages) and to every process whose
 * command line names the folder (the safety net for a process started just before the parent
 * died), then removes the folder and exits. A graceful `stop()` has already done all of that, so
 * the watchdog then finds nothing to do.
 *
 * Plain, erasable TypeScript only: Node runs this file directly from src/ (type stripping) and
 * as dist/envtest/watchdog.js from the package. @internal
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';

const dir = process.argv[2];
const pids = new Set<number>();

/** PIDs of processes whose command line contains `needle` (Linux: /proc; elsewhere: ps). */
function processesNaming(needle: string): number[] {
  const found: number[] = [];
  try {
    if (process.platform === 'linux') {
      for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
        try {
          if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(needle)) found.push(Number(entry));
        } catch {
          // gone meanwhile
        }
      }
    } else {
      for (const line of execFileSync('ps', ['-axo', 'pid=,command='], { encoding: 'latin1' }).split('\n')) {
        const match = /^\s*(\d+)\s(.*)$/.exec(line);
        if (match && Number(match[1]) !== process.pid && match[2]!.includes(needle)) found.push(Number(match[1]));
      }
    }
  } catch {
    // nothing to scan with: the PIDs we were told of are all we kill
  }
  return found;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let cleaning = false;
function cleanUp(): void {
  if (cleaning) return;
  cleaning = true;
  const targets = new Set([...pids, ...(dir ? processesNaming(dir) : [])]);
  for (const pid of targets) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // Wait (at most 5 s) until they are gone, so that the folder is not written to after its removal.
  const deadline = Date.now() + 5000;
  const finish = (): void => {
    if ([...targets].some(alive) && Date.now() < deadline) {
      setTimeout(finish, 20);
      return;
    }
    if (dir) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    process.exit(0);
  };
  finish();
}

// Terminal signals do not reach this session; a TERM sent to it directly means "clean up now".
process.on('SIGTERM', cleanUp);
process.on('SIGINT', cleanUp);
process.on('SIGHUP', () => {});
process.on('disconnect', cleanUp);
process.on('message', (message: unknown) => {
  if (message === 'stop') cleanUp();
  else if (typeof message === 'object' && message !== null && typeof (message as { pid?: unknown }).pid === 'number') pids.add((message as { pid: number }).pid);
});
if (!process.connected) cleanUp();
else process.send?.('ready');
