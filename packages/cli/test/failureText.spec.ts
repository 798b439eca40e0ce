import test from 'ava';
import { CliError } from '../src/cliError.js';
import { failureText, isHopeless, isTlsFailure } from '../src/failureText.js';
import { KubeApiError, TransportError } from 'rx-informer';

const pods = { group: '', version: 'v1', plural: 'pods', kind: 'Pod', namespaced: true };
const deployments = { group: 'apps', version: 'v1', plural: 'deployments', kind: 'Deployment', namespaced: true };
const context = { server: 'https://10.0.0.1:6443', typed: 'po', resource: pods };
const api = (code: number, reason: string | undefined, message: string, verb = 'list', resource = 'pods'): KubeApiError =>
  new KubeApiError({ verb, resource, code, status: { kind: 'Status', ...(reason ? { reason } : {}), message } });

test('what the CLI gives up on at once: 400, 422, TLS; not 5xx, 429 or the network', (t) => {
  t.true(isHopeless(api(400, 'BadRequest', 'x')));
  t.true(isHopeless(api(422, 'Invalid', 'x')));
  t.true(isHopeless(new TransportError('list', 'self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })));
  t.true(isTlsFailure(new TransportError('watch', 'Hostname/IP does not match', { code: 'ERR_TLS_CERT_ALTNAME_INVALID' })));
  for (const error of [api(500, 'InternalError', 'x'), api(429, 'TooManyRequests', 'x'), api(403, 'Forbidden', 'x'), new TransportError('list', 'connect ECONNREFUSED', { code: 'ECONNREFUSED' }), new Error('x')]) {
    t.false(isHopeless(error), error.message);
  }
});

test('KubeApiError.invalidRequest, the one definition the source and the CLI both give up on: 400 and 422 only', (t) => {
  for (const code of [400, 422]) t.true(api(code, undefined, 'x').invalidRequest, String(code));
  for (const code of [401, 403, 404, 409, 410, 429, 500, 503]) t.false(api(code, undefined, 'x').invalidRequest, String(code));
  t.false(Object.keys(api(400, undefined, 'x')).includes('invalidRequest'), 'derived from code: not an own field of the error');
});

test('kubectl\'s wording for each kind of failure', (t) => {
  t.is(failureText(api(400, 'BadRequest', 'bad'), { ...context, labelSelector: 'a b' }), 'Error from server (BadRequest): Unable to find "/v1, Resource=pods" that match label selector "a b", field selector "": bad');
  t.is(failureText(api(404, 'NotFound', 'gone'), { ...context, resource: deployments }), 'Error from server (NotFound): Unable to list "apps/v1, Resource=deployments": gone');
  t.is(failureText(api(422, 'Invalid', 'resourceVersionMatch: Invalid value'), context), 'Error from server (Invalid): resourceVersionMatch: Invalid value');
  t.is(failureText(api(500, undefined, 'boom'), context), 'Error from server: boom');
  t.is(failureText(api(401, 'Unauthorized', 'Unauthorized'), context), 'error: You must be logged in to the server (Unauthorized)');
  t.is(failureText(api(404, 'NotFound', 'no such type', 'discover', 'po'), context), 'error: the server doesn\'t have a resource type "po"');
  t.is(failureText(api(404, undefined, '404 page not found', 'discover', '/apis'), context), 'error: the server at https://10.0.0.1:6443 is not a Kubernetes API server: GET /apis answered 404 (404 page not found)');
  t.is(failureText(new KubeApiError({ verb: 'list', resource: 'pods', code: 503 }), context), 'Error from server: the server responded with HTTP 503');
  t.is(failureText(new TransportError('discover', 'unable to verify the first certificate', { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }), context), 'error: Unable to connect to the server: tls: unable to verify the first certificate (UNABLE_TO_VERIFY_LEAF_SIGNATURE)');
  t.is(failureText(new TransportError('list', 'read ECONNRESET', { code: 'ECONNRESET' }), context), 'error: Unable to connect to the server: read ECONNRESET');
  t.is(failureText(new CliError('error: as it is'), context), 'error: as it is');
  t.is(failureText(new Error('[informer] something'), context), 'error: something');
});
