#!/usr/bin/env node
/**
 * The `rx-informer` command as installed: checks the Node version before anything is loaded, then
 * runs the CLI (main.ts). On an older Node, client-node's HTTP stack (undici) dies while loading
 * with a stack trace; this says what is wrong in one line instead. It uses nothing newer than
 * Node 14 (an ES module with top-level await), so any Node a user may have can run it.
 *
 * The minimum is `engines.node` of package.json (test/package.spec.ts holds the two equal).
 */
const minimum = [22, 19] as const;
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < minimum[0] || (major === minimum[0] && minor < minimum[1])) {
  process.stderr.write(`error: rx-informer needs Node.js ${minimum.join('.')} or newer; this is ${process.version}\n`);
  process.exitCode = 1;
} else {
  await import('./main.js');
}
