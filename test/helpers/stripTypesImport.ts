/**
 * The Node option that runs TypeScript as the test workers run it (typeStripping.mjs: Node's own
 * type stripping, the entry points mapped to src/, the stripped files and compiled code cached), for
 * the examples the tests start: `spawn(process.execPath, [stripTypesImport, file])`. Under tsx every
 * such process compiled the library and client-node again, about 3 CPU-s before the example's first
 * line ran (issue 25 item 7).
 */
export const stripTypesImport = `--import=${new URL('./typeStripping.mjs', import.meta.url).href}`;
