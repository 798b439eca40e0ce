#!/usr/bin/env node
/**
 * The `rx-informer` command: `watch <resource>` against the current kubeconfig, and `demo`, the
 * same watch against an in-process API server with churn. See `rx-informer --help`.
 *
 * Ctrl-C (SIGINT) or SIGTERM stops it cleanly: the watch is unsubscribed, the demo server closed,
 * the terminal restored, and the process exits 0 by itself. Failures are one message on stderr,
 * worded as kubectl words them, and exit code 1 (2 for a usage mistake).
 */
import { readFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { enableCompileCache } from 'node:module';
import { CliError } from './cliError.js';
import { helpText, parseCliArgs, type CliCommand } from './parseCliArgs.js';

// Node keeps the compiled code of the modules loaded from here on (client-node is a thousand of
// them) in its cache directory, so later starts compile less: what Node advises command-line tools.
enableCompileCache();

async function main(argv: readonly string[]): Promise<number> {
  let command: CliCommand;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof CliError ? error.message : `error: ${(error as Error).message}`}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }
  if (command.command === 'help') {
    process.stdout.write(helpText(command.topic));
    return 0;
  }
  if (command.command === 'version') {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    process.stdout.write(`rx-informer ${pkg.version}\n`);
    return 0;
  }

  const stop = new AbortController();
  const onSignal = (): void => stop.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // `rx-informer watch … -o json | head`: when the reader goes away, stop quietly.
  const onOutputError = (error: NodeJS.ErrnoException): void => {
    if (error.code !== 'EPIPE') throw error;
    stop.abort(error);
  };
  process.stdout.on('error', onOutputError);
  // https://no-color.org: a NO_COLOR that is set and not empty turns colours off.
  const color = !(command.command !== 'crd-types' && command.noColor) && !process.env['NO_COLOR'];
  try {
    // Loaded here so that `--help` works without @kubernetes/client-node installed.
    if (command.command === 'demo') {
      const { runDemo } = await import('./runDemo.js');
      return await runDemo({ ...command, color, stdout: process.stdout, stderr: process.stderr, signal: stop.signal });
    }
    if (command.command === 'crd-types') {
      const { runCrdTypes } = await import('./crdTypes/runCrdTypes.js');
      const { kubeconfig, context } = command;
      const kubeConfig = async (): Promise<KubeConfig> =>
        (await import('./loadKubeConfig.js')).loadKubeConfig({ ...(kubeconfig !== undefined ? { path: kubeconfig } : {}), ...(context !== undefined ? { context } : {}) });
      return await runCrdTypes({ ...command, kubeConfig, stdout: process.stdout, signal: stop.signal });
    }
    // The library first, so that a terminal gets its first frame at once; client-node (a thousand
    // modules, for the kubeconfig) loads while that frame is on the screen.
    const { runWatch } = await import('./runWatch.js');
    const kubeConfig = import('./loadKubeConfig.js').then(({ loadKubeConfig }) =>
      loadKubeConfig({
        ...(command.kubeconfig !== undefined ? { path: command.kubeconfig } : {}),
        ...(command.context !== undefined ? { context: command.context } : {}),
        ...(command.server !== undefined ? { server: command.server } : {}),
      }),
    );
    kubeConfig.catch(() => undefined); // runWatch reports it
    return await runWatch({ ...command, color, kubeConfig, stdout: process.stdout, stderr: process.stderr, signal: stop.signal });
  } catch (error) {
    const missing = (error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && /@kubernetes\/client-node/.test(String(error));
    const message = missing
      ? 'error: the CLI needs @kubernetes/client-node: npm install @kubernetes/client-node'
      : error instanceof CliError ? error.message : `error: ${error instanceof Error ? error.message.replace(/^\[informer\] /, '') : String(error)}`;
    process.stderr.write(`${message}\n`);
    return error instanceof CliError ? error.exitCode : 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

process.exitCode = await main(process.argv.slice(2));
// Everything is unsubscribed and closed by now, so the process ends by itself; should anything
// still hold it (a socket a server is slow to drop), do not keep the user waiting.
setTimeout(() => process.exit(), 2000).unref();
