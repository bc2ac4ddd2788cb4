// The bench's readings of a Prometheus text: the memory line names each heap space's use and committed size, and
// leaves out spaces under 1 MiB.
import { category, memoryLine, metricSum } from './observe';
import { workloadId } from './plan';

const MiB = 1048576;
const text = [
  '# HELP oooi_controller_nodejs_heap_size_total_bytes Process heap size from Node.js in bytes.',
  `oooi_controller_nodejs_heap_size_total_bytes ${210 * MiB}`,
  `oooi_controller_nodejs_heap_size_used_bytes ${180 * MiB}`,
  `oooi_controller_nodejs_external_memory_bytes ${12 * MiB}`,
  `oooi_controller_nodejs_heap_space_size_total_bytes{space="old"} ${170 * MiB}`,
  `oooi_controller_nodejs_heap_space_size_used_bytes{space="old"} ${150 * MiB}`,
  `oooi_controller_nodejs_heap_space_size_total_bytes{space="new"} ${32 * MiB}`,
  `oooi_controller_nodejs_heap_space_size_used_bytes{space="new"} ${20 * MiB}`,
  `oooi_controller_nodejs_heap_space_size_total_bytes{space="read_only"} 1000`,
  `oooi_controller_nodejs_heap_space_size_used_bytes{space="read_only"} 900`,
].join('\n');

test('the memory line: heap use and committed size by space, external memory', () => {
  expect(memoryLine(text, 'oooi_controller_')).toBe(
    'heap used/committed 180/210 MiB (old 150/170, new 20/32), external 12 MiB',
  );
});

test('metricSum adds the series of one metric, with or without labels, and no other metric', () => {
  expect(metricSum(text, 'oooi_controller_nodejs_heap_space_size_total_bytes')).toBe(202 * MiB + 1000);
  expect(metricSum(text, 'oooi_controller_nodejs_heap_size_used_bytes')).toBe(180 * MiB);
});

test("a missing item's category drops its Infra, its count and its example", () => {
  expect(category('bench-3 12 Role objects (first: Role clusters-c7/oooi-dhcp-reader)')).toBe('Role objects');
  expect(category('bench-0 ProxyServer Available')).toBe('ProxyServer Available');
  expect(category('bench-12 status')).toBe('status');
  expect(category('417 attachment statuses')).toBe('attachment statuses');
});

test('a workload id: its kind, and each alternative as kind, namespace and name', () => {
  expect(
    workloadId(
      'RoleBinding clusters-c7/oooi-dhcp-vmi.clusters.bench-0-dhcp|RoleBinding clusters-c7/oooi-dhcp.clusters.bench-0-dhcp',
    ),
  ).toEqual({
    id: 'RoleBinding clusters-c7/oooi-dhcp-vmi.clusters.bench-0-dhcp|RoleBinding clusters-c7/oooi-dhcp.clusters.bench-0-dhcp',
    kind: 'RoleBinding',
    alternatives: [
      { kind: 'RoleBinding', namespace: 'clusters-c7', name: 'oooi-dhcp-vmi.clusters.bench-0-dhcp' },
      { kind: 'RoleBinding', namespace: 'clusters-c7', name: 'oooi-dhcp.clusters.bench-0-dhcp' },
    ],
  });
  expect(workloadId('Deployment clusters/bench-0-dns').alternatives).toEqual([
    { kind: 'Deployment', namespace: 'clusters', name: 'bench-0-dns' },
  ]);
});
