// Imports a module (argv[2]) in a process where @kubernetes/client-node and prom-client cannot be
// resolved, as for a user who installed rx-informer and rxjs only; prints the names it exports.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === '@kubernetes/client-node' || specifier.startsWith('@kubernetes/client-node/') || specifier === 'prom-client') {
    throw Object.assign(new Error('Cannot find package ' + specifier + ' (not installed in this test)'), { code: 'ERR_MODULE_NOT_FOUND' });
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
const entry = await import(pathToFileURL(process.argv[2]).href);
console.log(Object.keys(entry).sort().join(' '));
