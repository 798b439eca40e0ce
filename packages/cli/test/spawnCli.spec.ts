/** The CLI tests' process helper: `exit` means every byte written to the pipes has been read. */
import test from 'ava';
import { spawnCommand } from './spawnCli.js';

test('exit resolves only once stdout and stderr are read to their end', async (t) => {
  // The shell ends at once with status 2; a process it left behind writes later, on the same pipes.
  // A helper resolving on the child's 'exit' reports 2 with nothing read: the flags test once saw
  // an empty stderr from a process that had written its error line just before it ended.
  const late = `"${process.execPath}" -e "process.stdout.write('out\\n'); process.stderr.write('late\\n')"`;
  const run = spawnCommand('sh', ['-c', `${late} & exit 2`]);
  t.is(await run.exit, 2);
  t.is(run.stdout(), 'out\n');
  t.is(run.stderr(), 'late\n');
});
