// Port choice: the rig's ports lie outside the kernel's ephemeral range (so no outgoing connect() can take one
// between choosing it and the component binding it), and a component's "address already in use" is recognised
// in its log (rigUp then starts it again on fresh ports; lifecycle.test.ts proves that end to end).
import { createServer } from 'node:net';
import {
  ephemeralPortRange,
  freePorts,
  parsePortRange,
  portBand,
  takenPort,
  type PortRange,
} from '@oooi/rig';

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

describe('the ephemeral range and the band the rig draws from', () => {
  test.each<{ name: string; input: string; want?: PortRange; wantError?: string }>([
    { name: 'tab-separated, as /proc writes it', input: '32768\t60999\n', want: { low: 32768, high: 60999 } },
    { name: 'spaces', input: ' 1024  65000 ', want: { low: 1024, high: 65000 } },
    { name: 'one number', input: '32768\n', wantError: 'cannot parse' },
    { name: 'reversed', input: '60999 32768', wantError: 'cannot parse' },
    { name: 'out of range', input: '32768 70000', wantError: 'cannot parse' },
  ])('parsePortRange: $name', ({ input, want, wantError }) => {
    if (wantError !== undefined) expect(() => parsePortRange(input)).toThrow(wantError);
    else expect(parsePortRange(input)).toEqual(want);
  });

  test.each<{ name: string; input: PortRange; want?: PortRange; wantError?: string }>([
    { name: 'Linux default', input: { low: 32768, high: 60999 }, want: { low: 10000, high: 32767 } },
    {
      name: 'a low range starts at 1024',
      input: { low: 8000, high: 60999 },
      want: { low: 1024, high: 7999 },
    },
    { name: 'no room below: above it', input: { low: 1024, high: 60999 }, want: { low: 61000, high: 65535 } },
    { name: 'no room on either side', input: { low: 1500, high: 65000 }, wantError: 'leaves no room' },
  ])('portBand: $name', ({ input, want, wantError }) => {
    if (wantError !== undefined) expect(() => portBand(input)).toThrow(wantError);
    else expect(portBand(input)).toEqual(want);
  });
});

describe('freePorts', () => {
  it('returns distinct free ports outside the ephemeral range, none of those to avoid', async () => {
    const eph = ephemeralPortRange();
    const band = portBand(eph);
    const avoid = await freePorts(8);
    const ports = await freePorts(40, { avoid });
    expect(new Set(ports).size).toBe(40);
    for (const p of ports) {
      expect(p < eph.low || p > eph.high).toBe(true);
      expect(p).toBeGreaterThanOrEqual(band.low);
      expect(p).toBeLessThanOrEqual(band.high);
      expect(avoid).not.toContain(p);
      expect(await bindable(p)).toBe(true);
    }
  });
});

describe('takenPort', () => {
  const ports = [23790, 23791];
  test.each<{ name: string; log: string; want: number | undefined }>([
    {
      name: 'etcd (zap JSON)',
      log: '{"level":"fatal","msg":"discovery failed","error":"listen tcp 127.0.0.1:23791: bind: address already in use"}',
      want: 23791,
    },
    {
      name: 'kube-apiserver',
      log: 'E0101 failed to create listener: failed to listen on 127.0.0.1:23790: listen tcp 127.0.0.1:23790: bind: address already in use',
      want: 23790,
    },
    { name: 'another port', log: 'listen tcp 127.0.0.1:2379: bind: address already in use', want: undefined },
    {
      name: 'a longer port',
      log: 'listen tcp 127.0.0.1:237901: bind: address already in use',
      want: undefined,
    },
    { name: 'another error', log: 'listen tcp 127.0.0.1:23790: bind: permission denied', want: undefined },
    { name: 'an empty log', log: '', want: undefined },
  ])('$name', ({ log, want }) => {
    expect(takenPort(log, ports)).toBe(want);
  });
});
