import { TYPE_URL, translateProxyServer } from '@oooi/envoy';
import type { Snapshot } from './cache/snapshot';
import { buildSnapshot } from './cache/snapshot';
import { alpha, bravo } from './testing/fixtures';
import { MAX_CONDITION_NACK, MAX_NACK_MESSAGE, StatusTracker, nackText } from './status-tracker';

const s1 = buildSnapshot(translateProxyServer({ backends: alpha }));
/** alpha plus a backend on a port of its own: a new listener (the one Envoy cannot bind below). */
const held = {
  name: 'held-port',
  hostname: 'held.example.test',
  port: 8443,
  targetService: '203.0.113.10',
  targetPort: 9002,
  targetNamespace: 'ns',
};
const s2 = buildSnapshot(translateProxyServer({ backends: [...alpha, held] }));
const s3 = buildSnapshot(translateProxyServer({ backends: [...alpha, ...bravo, held] }));
const BIND =
  "Error adding/updating listener(s) port-8443: cannot bind '0.0.0.0:8443': Address already in use\n";

function tracker(): { t: StatusTracker; tick: () => void } {
  let now = Date.parse('2026-01-01T00:00:00Z');
  return { t: new StatusTracker(() => new Date(now)), tick: () => void (now += 1000) };
}
test('the fixtures: s2 changes both types', () => {
  for (const t of [TYPE_URL.cluster, TYPE_URL.listener])
    expect(s2.types.get(t)!.version).not.toBe(s1.types.get(t)!.version);
});
const ackAll = (t: StatusTracker, s: Snapshot): void => {
  t.ack(TYPE_URL.cluster, s.types.get(TYPE_URL.cluster)!.version);
  t.ack(TYPE_URL.listener, s.types.get(TYPE_URL.listener)!.version);
};
/** s1 served and ACKed, then s2 served, its clusters ACKed and its listeners NACKed (a bind failure). */
function nacked(): { t: StatusTracker; tick: () => void } {
  const r = tracker();
  r.t.served(s1);
  ackAll(r.t, s1);
  r.tick();
  r.t.served(s2);
  r.t.ack(TYPE_URL.cluster, s2.types.get(TYPE_URL.cluster)!.version);
  r.tick();
  r.t.nack(s2.types.get(TYPE_URL.listener)!.version, BIND);
  return r;
}

describe('StatusTracker', () => {
  test('Pending until Envoy ACKed both types, then Acked with ackedVersion', () => {
    const { t } = tracker();
    expect(t.current().configAccepted).toMatchObject({ status: 'Unknown', reason: 'Pending' });
    t.served(s1);
    t.ack(TYPE_URL.cluster, s1.types.get(TYPE_URL.cluster)!.version);
    expect(t.current().configAccepted.reason).toBe('Pending');
    expect(t.current().xds.ackedVersion).toBeUndefined();
    t.ack(TYPE_URL.listener, s1.types.get(TYPE_URL.listener)!.version);
    expect(t.current()).toEqual({
      xds: { desiredVersion: s1.version, ackedVersion: s1.version, ackedAt: '2026-01-01T00:00:00.000Z' },
      configAccepted: { status: 'True', reason: 'Acked', message: `Envoy runs ${s1.version}` },
    });
  });

  test('a NACK: ConfigAccepted=False Nacked with Envoy’s message; the NACKed and the last ACKed version', () => {
    const { t } = nacked();
    expect(t.current()).toEqual({
      xds: {
        desiredVersion: s2.version,
        ackedVersion: s1.version,
        ackedAt: '2026-01-01T00:00:00.000Z',
        nackedVersion: s2.version,
        nackMessage: BIND.trim(),
        nackedAt: '2026-01-01T00:00:02.000Z',
      },
      configAccepted: {
        status: 'False',
        reason: 'Nacked',
        message: `Envoy rejected ${s2.version} and keeps running ${s1.version}: ${BIND.trim()}`,
      },
    });
  });

  test('the same snapshot served again (a watch event, our own status write echoed) keeps the NACK', () => {
    const { t } = nacked();
    const before = t.current();
    t.served(s2);
    t.served(s2);
    expect(t.current()).toEqual(before);
    // a late ACK of the type Envoy did accept changes nothing either
    t.ack(TYPE_URL.cluster, s2.types.get(TYPE_URL.cluster)!.version);
    expect(t.current()).toEqual(before);
  });

  test('the next snapshot is Pending, and once Envoy ACKed it in full the NACK is cleared', () => {
    const { t, tick } = nacked();
    tick();
    t.served(s3);
    expect(t.current().configAccepted).toMatchObject({ status: 'Unknown', reason: 'Pending' });
    expect(t.current().xds.nackedVersion).toBe(s2.version);
    ackAll(t, s3);
    expect(t.current()).toEqual({
      xds: { desiredVersion: s3.version, ackedVersion: s3.version, ackedAt: '2026-01-01T00:00:03.000Z' },
      configAccepted: { status: 'True', reason: 'Acked', message: `Envoy runs ${s3.version}` },
    });
  });

  test('going back to the version Envoy runs clears the NACK too', () => {
    const { t } = nacked();
    t.served(s1);
    ackAll(t, s1);
    expect(t.current().xds).toEqual({
      desiredVersion: s1.version,
      ackedVersion: s1.version,
      ackedAt: '2026-01-01T00:00:00.000Z',
    });
    expect(t.current().configAccepted.reason).toBe('Acked');
  });

  test('an invalid spec outranks a NACK; a valid one brings the NACK back while Envoy has not ACKed', () => {
    const { t } = nacked();
    t.rejected([{ path: 'spec.backends[0].port', message: 'must be 1..65535' }]);
    expect(t.current().configAccepted).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    t.served(s2);
    expect(t.current().configAccepted).toMatchObject({ status: 'False', reason: 'Nacked' });
  });

  test('Envoy’s message: bounded, control characters dropped, on one line in the condition', () => {
    expect(nackText('a\u0000b\u001b[31mc\r\n\td\u007f ')).toBe('ab[31mc\n\td');
    expect(nackText('')).toBe('(Envoy gave no message)');
    const huge = nackText('x'.repeat(100_000));
    expect(huge.length).toBe(MAX_NACK_MESSAGE);
    expect(huge.endsWith('…')).toBe(true);
    // never half a surrogate pair
    const emoji = nackText('😀'.repeat(MAX_NACK_MESSAGE));
    expect(emoji.length).toBeLessThanOrEqual(MAX_NACK_MESSAGE);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);

    const { t } = nacked();
    t.nack('v', `line one\nline two ${'y'.repeat(100_000)}`);
    const { xds, configAccepted } = t.current();
    expect(xds.nackMessage!.length).toBe(MAX_NACK_MESSAGE);
    expect(configAccepted.message).toContain('line one line two y');
    expect(configAccepted.message).not.toContain('\n');
    // the CRD caps a condition message at 32768; Envoy's part of it at MAX_CONDITION_NACK
    expect(configAccepted.message.length).toBeLessThan(MAX_CONDITION_NACK + 200);
  });

  test('Pending → Acked → Nacked → Acked, step by step', () => {
    const { t, tick } = tracker();
    const step = (): string => {
      const { configAccepted: c } = t.current();
      return `${c.status} ${c.reason}`;
    };
    const steps = [step()];
    t.served(s1);
    steps.push(step());
    ackAll(t, s1);
    steps.push(step());
    tick();
    t.served(s2);
    steps.push(step());
    t.ack(TYPE_URL.cluster, s2.types.get(TYPE_URL.cluster)!.version);
    t.nack(s2.types.get(TYPE_URL.listener)!.version, BIND);
    steps.push(step());
    tick();
    t.served(s3);
    steps.push(step());
    ackAll(t, s3);
    steps.push(step());
    expect(steps).toEqual([
      'Unknown Pending',
      'Unknown Pending',
      'True Acked',
      'Unknown Pending',
      'False Nacked',
      'Unknown Pending',
      'True Acked',
    ]);
    expect(t.current().xds).toEqual({
      desiredVersion: s3.version,
      ackedVersion: s3.version,
      ackedAt: '2026-01-01T00:00:02.000Z',
    });
  });

  test('InvalidSpec names each refused field, at most 20 of them; a valid spec ends it', () => {
    const { t } = tracker();
    t.served(s1);
    const errors = Array.from({ length: 23 }, (_, i) => ({
      path: `spec.backends[${i}].port`,
      message: 'must be 1..65535',
    }));
    t.rejected(errors);
    const { configAccepted } = t.current();
    expect(configAccepted).toMatchObject({ status: 'False', reason: 'InvalidSpec' });
    expect(configAccepted.message).toMatch(
      /^spec rejected, last good config stays served: spec\.backends\[0\]\.port/,
    );
    expect(configAccepted.message).toContain('spec.backends[19].port');
    expect(configAccepted.message).not.toContain('spec.backends[20].port');
    expect(configAccepted.message.endsWith('; … and 3 more')).toBe(true);
    // the served version is still the last good one
    expect(t.current().xds.desiredVersion).toBe(s1.version);
    t.served(s1);
    expect(t.current().configAccepted.reason).toBe('Pending');
  });
});
