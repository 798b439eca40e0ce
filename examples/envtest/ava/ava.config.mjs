// ava configuration of the envtest example (examples/envtest/ava/withControlPlane.ts runs ava with it).
export default {
  files: ['examples/envtest/ava/*.test.ts'],
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  timeout: '60s',
};
