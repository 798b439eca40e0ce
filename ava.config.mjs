// ava configuration of npm test (the end-to-end suite has its own: ava.cluster.config.mjs).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

/**
 * The spec files that take longest, longest first (wall time in a full run from a fresh clone on
 * two cores, issue 25 item 7): they start first, so that the run does not end waiting on one of
 * them while the other workers are idle. The rest follow in the order of `files`.
 */
const longestFirst = [
  'test/package.spec.ts', // builds, packs and installs the package
  'test/examples.spec.ts', // examples that print at most once a second
  'packages/cli/test/failFast.spec.ts',
  'packages/cli/test/flags.spec.ts',
  'packages/cli/test/demo.spec.ts',
  'packages/cli/test/columns.spec.ts',
  'test/docs/apiReference.spec.ts', // TypeDoc
  'packages/cli/test/crdTypes.spec.ts', // type-checks the library's sources with generated types
  'packages/cli/test/crdTypesReal.spec.ts', // Go modules, and about 2.5 MiB of generated types to type-check
  'packages/cli/test/packageBin.spec.ts',
  'test/readme.spec.ts',
  'test/browser/webDemo.spec.ts', // chromium
  'test/sharding/sharded.live.spec.ts',
  'test/docs/tsdocExamples.spec.ts',
  'test/reliability/convergence2.property.spec.ts',
  'test/reliability/convergence.property.spec.ts',
];
const rank = (file) => {
  const at = longestFirst.indexOf(relative(root, file));
  return at === -1 ? longestFirst.length : at;
};

export default {
  extensions: { ts: 'module' },
  nodeArguments: ['--import=./test/helpers/typeStripping.mjs'],
  files: ['test/**/*.spec.ts', 'packages/*/test/**/*.spec.ts'],
  // Four files at a time on two cores. Six and eight were tried from a fresh clone on the shared
  // 2-core machine: no faster (319 s at six against 310 s at four, 1.2 cores used either way) and
  // more timing-sensitive tests lost their race.
  concurrency: 4,
  timeout: '120s',
  /** @type {(a: string, b: string) => number} */
  sortTestFiles: (a, b) => rank(a) - rank(b),
};
