// The sandbox's DNS diagnosis (diagnose.ts), its pure part: which records cover a name, and what each stage's files
// and spec say about it. Pure: no rig peer is used.
import type { DNSServer } from '@oooi/api';
import { coveringNames, filesStage, logLine, specStage } from './diagnose';

const corefile = [
  '.:53 {',
  '    nsid oooi clusters/vlan100-dns vlan 11',
  '}',
  '.:53 {',
  '    nsid oooi clusters/vlan100-dns pod-network 22',
  '}',
].join('\n');
const name = 'console-openshift-console.apps.bravo.example.com';

test('a name is covered by itself and by the wildcard one label up', () => {
  expect(coveringNames(name)).toEqual([name, '*.apps.bravo.example.com']);
  expect(coveringNames('kubernetes')).toEqual(['kubernetes']);
});

test.each<[string, Record<string, string> | undefined, string]>([
  ['no files', undefined, 'none'],
  [
    'the wildcard in one view only',
    {
      Corefile: corefile,
      'vlan.zone': '*.apps.bravo.example.com.   IN A 198.51.100.210\n',
      'pod-network.zone': '*.apps.alpha.example.com.   IN A 10.96.1.1\n',
    },
    'nsid vlan 11, pod-network 22; a record for it in vlan.zone',
  ],
  [
    'a longer name sharing the prefix is no record for it',
    { Corefile: corefile, 'vlan.zone': '*.apps.bravo.example.com.evil.   IN A 1.2.3.4\n' },
    'nsid vlan 11, pod-network 22; a record for it in no file',
  ],
  ['no Corefile', { 'vlan.zone': '' }, 'nsid (none); a record for it in no file'],
])('filesStage: %s', (_, files, want) => {
  expect(filesStage(files, name)).toBe(want);
});

test('specStage names the record of each view, the generation and the one the status observed', () => {
  const dns = {
    metadata: { name: 'vlan100-dns', namespace: 'clusters', generation: 4 },
    spec: { views: { vlan: { records: [{ name: '*.apps.bravo.example.com', ip: '198.51.100.210' }] } } },
    status: { observedGeneration: 3 },
  } as unknown as DNSServer;
  expect(specStage(dns, name)).toBe(
    'g4 (status g3): vlan *.apps.bravo.example.com -> 198.51.100.210; pod-network (none)',
  );
  expect(specStage(undefined, name)).toBe('not found');
});

test.each([
  [
    '{"level":30,"time":1796607818548,"pid":21824,"name":"oooi-config-sync","resourceVersion":"474","files":3,"msg":"Wrote files"}',
    '01:43:38.548 Wrote files (resourceVersion 474, pid 21824)',
  ],
  ['[INFO] SIGUSR1: Reloading', '[INFO] SIGUSR1: Reloading'],
  ['{"no":"msg"}', '{"no":"msg"}'],
])('logLine(%s)', (line, want) => {
  expect(logLine(line)).toBe(want);
});

test('logLine: an error object is shown by its message', () => {
  const line = JSON.stringify({
    level: 50,
    time: 1796607818548,
    err: { type: 'ApiError', message: 'rolebindings "x" not found', stack: 'ApiError: …' },
    msg: 'Reconciler error',
  });
  expect(logLine(line)).toBe('01:43:38.548 Reconciler error (err rolebindings "x" not found)');
});
