// An exec credential plugin for listWatch.spec.ts: prints a token as kubectl's exec protocol expects.
process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'from-exec-plugin' } }));
