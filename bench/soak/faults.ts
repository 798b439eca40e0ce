/**
 * The soak's faults: what each does to the control plane or to one process's network, and a seeded
 * schedule that deals them round by round, every kind once a round in a shuffled order.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FaultProxy } from './faultProxy.js';
import type { Rng } from './rng.js';

const exec = promisify(execFile);

export const faultKinds = ['apiserverRestart', 'apiserverKill', 'etcdPause', 'compaction', 'networkCut', 'leaderKill', 'throttle', 'watchCutMidLine'] as const;
export type FaultKind = (typeof faultKinds)[number];

/** What a fault needs from the soak: the cluster script, the proxies, the replicas. */
export interface FaultTargets {
  readonly root: string;
  /** The proxy of each process under test, by name (`informers`, `replica-1`, …). */
  proxies(): ReadonlyMap<string, FaultProxy>;
  /** The name of the replica holding the lease, if any. */
  leader(): Promise<string | undefined>;
  /** SIGKILLs a replica and starts a new one in its place. */
  killReplica(name: string): Promise<void>;
  readonly holdMs: number;
}

/** Runs one fault to its end (the cluster back, the proxy passing again); returns what it hit. */
export async function inject(kind: FaultKind, targets: FaultTargets, random: Rng): Promise<string> {
  const cluster = (command: string): Promise<unknown> => exec('bash', ['test/cluster/env.sh', command], { cwd: targets.root, timeout: 180_000 });
  const hold = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, targets.holdMs));
  const replicas = [...targets.proxies().keys()].filter((name) => name !== 'informers');
  switch (kind) {
    case 'apiserverRestart':
      await cluster('restart-apiserver');
      return 'kube-apiserver (SIGTERM, start)';
    case 'apiserverKill':
      await cluster('kill-apiserver');
      await cluster('start-apiserver');
      return 'kube-apiserver (SIGKILL, start)';
    case 'etcdPause':
      await cluster('pause-etcd');
      await hold();
      await cluster('resume-etcd');
      return `etcd (SIGSTOP ${targets.holdMs} ms)`;
    case 'compaction':
      await cluster('compact');
      return 'etcd compaction to the current revision';
    case 'networkCut': {
      // The lease may still name a replica that was killed (until it expires): cut a live one then.
      const leader = await targets.leader();
      const name = leader !== undefined && random.next() < 0.5 && replicas.includes(leader) ? leader : random.pick(replicas);
      const proxy = targets.proxies().get(name)!;
      proxy.mode = 'blackhole';
      await hold();
      proxy.mode = 'pass';
      return `${name}${name === leader ? ' (leader)' : ''} cut off ${targets.holdMs} ms`;
    }
    case 'leaderKill': {
      const leader = (await targets.leader()) ?? random.pick(replicas);
      await targets.killReplica(leader);
      return `${leader} SIGKILLed`;
    }
    case 'throttle': {
      const name = random.pick(replicas);
      const hit = [targets.proxies().get('informers')!, targets.proxies().get(name)!];
      for (const proxy of hit) proxy.mode = 'throttle';
      await hold();
      for (const proxy of hit) proxy.mode = 'pass';
      return `429 to informers and ${name} for ${targets.holdMs} ms`;
    }
    case 'watchCutMidLine': {
      let cut = 0;
      for (const proxy of targets.proxies().values()) cut += proxy.cutMidLine();
      return `${cut} watches cut mid-line`;
    }
  }
}

/** The kinds in rounds: every kind once a round, each round in its own seeded order. */
export function schedule(random: Rng): () => FaultKind {
  let round: FaultKind[] = [];
  return () => {
    if (round.length === 0) {
      round = [...faultKinds];
      for (let i = round.length - 1; i > 0; i--) {
        const j = random.int(i + 1);
        [round[i], round[j]] = [round[j]!, round[i]!];
      }
    }
    return round.shift()!;
  };
}
