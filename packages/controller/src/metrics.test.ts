import { Registry } from 'prom-client';
import { ControllerMetrics } from './metrics';

const series = async (r: Registry): Promise<string[]> =>
  (await r.metrics()).split('\n').filter((l) => l.startsWith('oooi_controller_infra_condition_bool{'));

describe('ControllerMetrics infra conditions', () => {
  test('one series per Infra and type: a changed reason replaces the old series, forgetInfra drops them', async () => {
    const r = new Registry();
    const m = new ControllerMetrics(r);
    m.observeInfra('ns', 'a', {
      counts: {},
      pending: 0,
      conditions: [
        { type: 'Ready', status: 'False', reason: 'ChildTooLarge' },
        { type: 'Available', status: 'True', reason: 'Available' },
      ],
    });
    expect(await series(r)).toEqual([
      'oooi_controller_infra_condition_bool{namespace="ns",infra="a",type="Ready",reason="ChildTooLarge"} 0',
      'oooi_controller_infra_condition_bool{namespace="ns",infra="a",type="Available",reason="Available"} 1',
    ]);
    m.observeInfra('ns', 'a', {
      counts: {},
      pending: 0,
      conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded' }],
    });
    expect(await series(r)).toEqual([
      'oooi_controller_infra_condition_bool{namespace="ns",infra="a",type="Available",reason="Available"} 1',
      'oooi_controller_infra_condition_bool{namespace="ns",infra="a",type="Ready",reason="ReconciliationSucceeded"} 1',
    ]);
    m.forgetInfra('ns', 'a');
    expect(await series(r)).toEqual([]);
  });
});
