/**
 * What the bundle's text costs a running process (issue 26: a replica's floor is paid once per
 * replica). V8 keeps a script's source in the heap for as long as the script lives (functions are
 * compiled from it lazily), one byte a character while every character is ASCII and two bytes
 * a character as soon as one is not. Comments and indentation are part of that text.
 */
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { cliBundle } from './cliBundle.js';

/**
 * The scripts a run loads: all but `undici.cjs`, which is loaded only if client-node's fetch API is
 * used (its licence notices, kept at its end, are not all ASCII).
 */
const scripts = async (): Promise<Array<{ name: string; text: string }>> => {
  const dist = dirname(await cliBundle());
  return readdirSync(dist)
    .filter((name) => name.endsWith('.js'))
    .map((name) => ({ name, text: readFileSync(join(dist, name), 'utf8') }));
};

test('every script the CLI loads is ASCII, so V8 holds its source one byte a character', async (t) => {
  t.true((await scripts()).length >= 2, 'bin.js and main.js at least');
  for (const { name, text } of await scripts()) {
    const at = text.search(/[^\x00-\x7f]/);
    t.is(at, -1, `${name} has a character that is not ASCII at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}`);
  }
});

test('the scripts the CLI runs carry no doc comments and few line breaks', async (t) => {
  const run = await scripts();
  for (const { name, text } of run) t.false(/\/\*\*\s/.test(text), `${name} holds a doc comment`);
  // Line breaks are left only inside template literals and where a statement needs one.
  const lines = run.reduce((sum, { text }) => sum + text.split('\n').length, 0);
  const characters = run.reduce((sum, { text }) => sum + text.length, 0);
  t.true(lines <= characters / 1_000, `${lines} lines in ${characters} characters`);
});

test("client-node's proxy agents are in proxy-agents.cjs, loaded on first use, not in the scripts the CLI loads at start", async (t) => {
  const dist = dirname(await cliBundle());
  // An error message of socks, and one of hpagent.
  const agents = /An invalid SOCKS command was provided|Bad response: /;
  t.regex(readFileSync(join(dist, 'proxy-agents.cjs'), 'utf8'), agents);
  for (const { name, text } of await scripts()) t.notRegex(text, agents, `${name} holds a proxy agent`);
});

test("client-node's auth-provider libraries (openid-client with oauth4webapi, jsonpath-plus) are in auth-providers.cjs, loaded on first use, not in the scripts the CLI loads at start", async (t) => {
  const dist = dirname(await cliBundle());
  // A path oauth4webapi asks an issuer for, and a message of jsonpath-plus's expression parser.
  const providers = /\.well-known\/openid-configuration|Expected expression after /;
  t.regex(readFileSync(join(dist, 'auth-providers.cjs'), 'utf8'), providers);
  for (const { name, text } of await scripts()) t.notRegex(text, providers, `${name} holds an auth provider's library`);
});

test('the files loaded on first use export what their stubs take from them', async (t) => {
  const require = createRequire(await cliBundle());
  const undici = require('./undici.cjs') as Record<string, unknown>;
  for (const name of ['Agent', 'ProxyAgent', 'fetch']) t.is(typeof undici[name], 'function', `undici.cjs: ${name}`);
  const agents = require('./proxy-agents.cjs') as Record<string, { createConnection?: unknown }>;
  for (const name of ['SocksProxyAgent', 'HttpProxyAgent', 'HttpsProxyAgent']) t.is(typeof agents[name], 'function', `proxy-agents.cjs: ${name}`);
  t.is(typeof agents['SocksClient']?.createConnection, 'function', 'proxy-agents.cjs: SocksClient.createConnection');
  const providers = require('./auth-providers.cjs') as Record<string, unknown>;
  for (const name of ['discovery', 'refreshTokenGrant', 'JSONPath']) t.is(typeof providers[name], 'function', `auth-providers.cjs: ${name}`);
  t.is(typeof providers['customFetch'], 'symbol', 'auth-providers.cjs: customFetch');
});
