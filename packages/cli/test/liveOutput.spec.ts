import test from 'ava';
import { emptySnapshot } from 'rx-informer';
import { createLiveOutput } from '../src/liveOutput.js';
import { createWatchState } from '../src/watchState.js';

test('the exit summary on a terminal is wrapped at its parts, not cut off at the width (issue 43: "delete 66 … delet…")', (t) => {
  let written = '';
  const stdout = { isTTY: true, columns: 60, rows: 20, write: (text: string) => ((written += text), true) };
  const state = createWatchState(0);
  const output = createLiveOutput({ state, stdout, resource: 'pods', indexNames: [], tickMs: 60_000, color: false });
  output.resolved({ resource: { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true }, columns: [], title: 'rx-informer watch pods' });
  written = '';
  output.close({ snapshot: { ...emptySnapshot(), size: 1234, synced: true, resourceVersion: '987654' } as never });
  const after = written.slice(written.lastIndexOf('\x1b[?1049l') + '\x1b[?1049l'.length);
  const lines = after.split('\n').filter((line) => line !== '');
  t.true(lines.length > 1, after);
  t.true(lines.every((line) => line.length <= 60), lines.join('\n'));
  t.false(after.includes('…'), after);
  t.regex(lines.join(' '), /1,234 pods .*delete 0$/);
});
