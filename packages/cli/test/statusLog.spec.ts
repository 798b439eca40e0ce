import test from 'ava';
import { emptySnapshot } from 'rx-informer';
import { createStatusLog } from '../src/statusLog.js';
import { createWatchState } from '../src/watchState.js';

const pods = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };

function log() {
  const lines: string[] = [];
  const state = createWatchState(0);
  const status = createStatusLog({ state, out: { write: (text: string) => (lines.push(...text.split('\n').filter(Boolean)), true) } as never, indexNames: [] });
  status.resolved({ resource: pods, columns: [], title: 'rx-informer watch pods' });
  return { lines, status };
}

test('one object is "1 pod", not "1 pods"; none and many take the plural (issue 43)', (t) => {
  for (const [size, noun] of [[1, 'pod'], [0, 'pods'], [2, 'pods']] as const) {
    const { lines, status } = log();
    const snapshot = { ...emptySnapshot(), size, synced: true, resourceVersion: '7' };
    status.synced(snapshot as never);
    t.regex(lines[0] ?? '', new RegExp(`^synced ${size} ${noun} \\(0 pages\\) at resourceVersion 7$`));
    status.close(snapshot as never);
    t.regex(lines.at(-1) ?? '', new RegExp(` ${size} ${noun}( |$)`));
  }
});

test('on a pipe, the closing status line is not printed again when the last tick printed the same (issue 43)', (t) => {
  const { lines, status } = log();
  const snapshot = { ...emptySnapshot(), size: 2, synced: true, resourceVersion: '7' };
  status.tick(snapshot as never);
  status.close(snapshot as never);
  const statusLines = lines.filter((line) => / 2 pods/.test(line));
  t.is(statusLines.length, 1, lines.join('\n'));
});
