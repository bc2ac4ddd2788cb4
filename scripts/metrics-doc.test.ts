import { Counter, Gauge, Histogram } from 'prom-client';
import { conventionProblems, definitionsOf, PROCESSES, renderMetricsDoc } from './metrics-doc';

describe('metrics-doc', () => {
  test("the code's definitions follow the conventions, and every process has some", async () => {
    await expect(renderMetricsDoc()).resolves.toContain('## oooi-dhcp');
    for (const p of PROCESSES) {
      const defs = (await Promise.all(p.sets.map((s) => definitionsOf(s)))).flat();
      expect({ process: p.process, problems: conventionProblems(p.prefix, defs) }).toEqual({
        process: p.process,
        problems: [],
      });
      // the config-sync sidecar has two series of its own; every other process has many
      expect(defs.length).toBeGreaterThan(p.prefix === 'oooi_config_sync_' ? 1 : 5);
    }
  });

  test('a violation is named: counter without _total, _total on a gauge, ms units, a per-client label', async () => {
    const defs = await definitionsOf({
      declaredIn: 'test',
      when: '',
      create: (registers) => {
        new Counter({ name: 'oooi_x_requests', help: 'h', registers: [registers] });
        new Gauge({ name: 'oooi_x_leases_total', help: 'h', registers: [registers] });
        new Histogram({ name: 'oooi_x_commit_ms', help: 'h', registers: [registers] });
        new Gauge({ name: 'oooi_x_lease_bool', help: 'h', labelNames: ['mac'], registers: [registers] });
        new Gauge({ name: 'other_thing', help: 'h', registers: [registers] });
      },
    });
    expect(conventionProblems('oooi_x_', defs)).toEqual([
      'oooi_x_commit_ms: use base units (seconds, bytes), not ms',
      'oooi_x_lease_bool: label "mac" is unbounded (one series per client)',
      'oooi_x_leases_total: only counters end in _total (this is a gauge)',
      'oooi_x_requests: a counter must end in _total',
      'other_thing: does not start with oooi_x_',
    ]);
  });
});
