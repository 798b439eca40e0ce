/**
 * client-node's `KubeConfig`, named statically so that the bundle (build.ts) takes only what it
 * needs of client-node; `loadKubeConfig` imports this module on demand, so the class still loads
 * only when the CLI first needs it (the demo does not).
 */
export { KubeConfig } from '@kubernetes/client-node';
