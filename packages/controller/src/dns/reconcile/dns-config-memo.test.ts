// DnsConfigMemo: the same answer as renderDnsConfig, rendered again only when namespace, name or spec differ.
import { exampleDnsServer } from '../testing/fixtures';
import { renderDnsConfig } from '../render/dns-config';
import { DnsConfigMemo } from './dns-config-memo';

test('an equal spec in a new object (a status write) is not rendered again; the answer is renderDnsConfig', () => {
  const memo = new DnsConfigMemo();
  const dns = exampleDnsServer();
  const first = memo.render(dns);
  const again = memo.render(structuredClone({ ...dns, status: { observedGeneration: 1 } }));
  expect(again).toBe(first);
  expect(first).toEqual(renderDnsConfig(dns));
  expect(memo.counts).toEqual({ rendered: 1, held: 1 });
});

test('a changed spec, or another DNSServer, is rendered; forget drops one entry', () => {
  const memo = new DnsConfigMemo();
  const dns = exampleDnsServer();
  const first = memo.render(dns);
  const fewer = {
    ...dns,
    spec: { ...dns.spec, views: exampleDnsServer({ clusters: ['alpha'] }).spec.views },
  };
  const changed = memo.render(fewer);
  expect(changed).not.toBe(first);
  expect(changed).toEqual(renderDnsConfig(fewer));
  const other = memo.render({ ...dns, metadata: { ...dns.metadata, name: 'other-dns' } });
  expect(other.ok && other.value.files.Corefile).toContain('other-dns');
  expect(memo.counts).toEqual({ rendered: 3, held: 2 });
  memo.forget(dns.metadata.namespace ?? '', dns.metadata.name);
  expect(memo.counts.held).toBe(1);
});
