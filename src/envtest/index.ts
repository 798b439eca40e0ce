/**
 * rx-informer/envtest: a real Kubernetes control plane for tests — etcd and kube-apiserver (and
 * optionally kube-controller-manager's garbage collector) started from TypeScript on free loopback
 * ports, CRDs installed, an admin KubeConfig handed back, everything stopped (also when the test
 * process is killed). The binaries come from setup-envtest's `KUBEBUILDER_ASSETS` folder, a folder
 * you name, or a build from Go modules. Needs @kubernetes/client-node (for the KubeConfig) and
 * `openssl` (for the certificates).
 *
 * @module rx-informer/envtest
 */

// First, so that an old Node is told so before client-node is loaded.
import './nodeVersionGuard.js';

export { startControlPlane } from './startControlPlane.js';
export type { ControlPlane, ControlPlaneOptions, ControlPlaneUser } from './controlPlane.js';
export type { ControlPlaneBinaries } from './binaries.js';
export { EnvtestError, type EnvtestErrorReason } from './envtestError.js';
