import { KubeConfig } from '@kubernetes/client-node';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A KubeConfig for a plain-HTTP test server listening on 127.0.0.1, with a user that sends no credentials. */
export function loopbackKubeConfig(server: Server): KubeConfig {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'c', server: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, skipTLSVerify: true }],
    users: [{ name: 'u' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  return kubeConfig;
}
