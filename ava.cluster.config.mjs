// ava configuration of the end-to-end suite against a real kube-apiserver (npm run test:cluster).
export default {
  files: ['test/cluster/e2e/**/*.e2e.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  serial: true,
  concurrency: 1,
  timeout: '3m',
};
