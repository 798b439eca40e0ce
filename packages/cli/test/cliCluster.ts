import type { ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApiServer, type TestApiServer, type TestApiServerConfig } from 'rx-informer/test-server';
import { spawnCli, spawnCommand, type CliRun } from './spawnCli.js';

/** A test API server with its kubeconfig in a temp dir, and the two clients to point at it; all go away after the test. */
export interface CliCluster {
  readonly server: TestApiServer;
  readonly kubeconfig: string;
  readonly dir: string;
  /** `rx-informer <args> --kubeconfig <it>` on pipes. */
  cli(args: readonly string[], env?: Record<string, string | undefined>): CliRun;
  /** Real kubectl (`$KUBECTL` or the one on the PATH) with the same kubeconfig, a private cache and HOME. */
  kubectl(args: readonly string[]): CliRun;
}

export async function cliCluster(t: ExecutionContext, config: TestApiServerConfig = {}): Promise<CliCluster> {
  const server = await createTestApiServer(config);
  const dir = await mkdtemp(join(tmpdir(), 'rx-informer-cli-'));
  const kubeconfig = join(dir, 'config');
  await server.writeKubeConfig(kubeconfig);
  t.teardown(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  return {
    server,
    kubeconfig,
    dir,
    cli: (args, env) => runCli(t, [...args, '--kubeconfig', kubeconfig], env),
    kubectl: (args) => {
      const run = spawnCommand(process.env['KUBECTL'] ?? 'kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { HOME: dir });
      t.teardown(() => run.kill('SIGKILL'));
      return run;
    },
  };
}

/** `rx-informer <args>` on pipes, killed after the test. */
export function runCli(t: ExecutionContext, args: readonly string[], env?: Record<string, string | undefined>): CliRun {
  const run = spawnCli(args, env);
  t.teardown(() => run.kill('SIGKILL'));
  return run;
}
