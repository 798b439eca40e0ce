// @ts-check
/**
 * `npm test`: the type-check (`tsc --noEmit` over everything, as `npm run typecheck`) and the test
 * suite (ava, with any arguments given) at the same time instead of one after the other. tsc keeps
 * one core busy for about 25 s while ava, waiting on servers and child processes, leaves room beside
 * it (issue 25 item 7). ava's report streams as it comes; tsc's errors follow it. Fails when either
 * fails.
 *
 *   node scripts/test.mjs [ava arguments]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** @param {string} name */
const bin = (name) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

/**
 * Runs `command` from the repository root; resolves with its exit code (1 for a signal) and, when
 * `collect`, what it wrote to stdout and stderr.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {boolean} collect
 * @returns {Promise<{ code: number, output: string }>}
 */
function run(command, args, collect) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: collect ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const [typecheck, ava] = await Promise.all([run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], true), run(bin('ava'), process.argv.slice(2), false)]);
process.stdout.write(typecheck.code === 0 ? '\n  type-check (tsc --noEmit): no errors\n' : `\n  type-check (tsc --noEmit) failed:\n\n${typecheck.output}\n`);
process.exitCode = typecheck.code !== 0 ? typecheck.code : ava.code;
