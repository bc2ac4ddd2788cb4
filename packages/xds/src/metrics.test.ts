import { Registry } from 'prom-client';
import { XdsMetrics } from './metrics';

test('every series is exported from the start, at zero, before any Envoy connects', async () => {
  const registry = new Registry();
  new XdsMetrics(registry);
  const text = await registry.metrics();
  for (const type of ['cluster', 'listener']) {
    expect(text).toContain(`oooi_xds_pushes_total{type="${type}"} 0`);
    expect(text).toContain(`oooi_xds_nacks_total{type="${type}"} 0`);
    // what "ACKed" panels and OooiXdsUpdateNotAcked read
    expect(text).toContain(`oooi_xds_ack_latency_seconds_count{type="${type}"} 0`);
  }
  expect(text).toContain('oooi_xds_connected_envoys{mode="delta"} 0');
});
