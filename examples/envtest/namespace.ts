/**
 * A namespace per test, shared by the envtest examples: tests of one run share one control plane
 * and stay apart by working in namespaces of their own. (Without kube-controller-manager's
 * namespace controller a deleted namespace never finishes deleting, so none is deleted: the
 * control plane goes away at the end of the run anyway.)
 */
import { CoreV1Api, type KubeConfig } from '@kubernetes/client-node';

let counter = 0;

/** Creates a namespace named after `prefix` (lower-cased, shortened), unique within the run, and returns its name. */
export async function testNamespace(kubeConfig: KubeConfig, prefix: string): Promise<string> {
  const base = prefix.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'test';
  const name = `${base}-${process.pid}-${counter++}`;
  await kubeConfig.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name } } });
  return name;
}
