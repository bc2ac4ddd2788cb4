import { firstSecond, p99, parsePerf, parseThreads } from './perfdhcp';
import { benchCpus, diskIrqCpu } from './servers';

/** A perfdhcp 2.2 report in its own layout (`-x t`), trimmed to the lines the parser reads and their neighbours. */
function report(o: {
  rate: number;
  offer: { sent: number; received: number; avg: number };
  ack: { sent: number; received: number; avg: number };
  timers: { offer: [number, number][]; ack: [number, number][] };
}): string {
  const stats = (name: string, s: { sent: number; received: number; avg: number }) =>
    [
      `***Statistics for: ${name}***`,
      `sent packets: ${s.sent}`,
      `received packets: ${s.received}`,
      `drops: ${s.sent - s.received}`,
      `drops ratio: ${((100 * (s.sent - s.received)) / s.sent).toFixed(5)} %`,
      'orphans: 0',
      '',
      'min delay: 0.031 ms',
      `avg delay: ${s.avg} ms`,
      'max delay: 51.524 ms',
      '',
    ].join('\n');
  const timers = (name: string, xs: [number, number][]) =>
    [`***Timestamps for packets: ${name}***`, ...xs.map(([a, b]) => `sent / received: ${a} / ${b}`)].join(
      '\n',
    );
  return [
    'Running: perfdhcp -4 -g single -l 198.18.0.1 -R 5000 -p 10 -r 3500 -x t 198.18.0.2',
    '***Rate statistics***',
    `Rate: ${o.rate} 4-way exchanges/second, expected rate: 3500`,
    '',
    '***Malformed Packets***',
    'Malformed packets: 0',
    stats('DISCOVER-OFFER', o.offer),
    stats('REQUEST-ACK', o.ack),
    timers('DISCOVER-OFFER', o.timers.offer),
    timers('REQUEST-ACK', o.timers.ack),
  ].join('\n');
}

describe('parsePerf', () => {
  const a = report({
    rate: 3014.32,
    offer: { sent: 1000, received: 990, avg: 2 },
    ack: { sent: 990, received: 980, avg: 4 },
    // sent at 100.0 s (+2 ms), 100.5 s (+3 ms), 101.5 s (+50 ms: after the first second)
    timers: {
      offer: [
        [100.0, 100.002],
        [100.5, 100.503],
        [101.5, 101.55],
      ],
      ack: [
        [100.01, 100.014],
        [101.6, 101.7],
      ],
    },
  });
  const b = report({
    rate: 3000,
    offer: { sent: 3000, received: 3000, avg: 1 },
    ack: { sent: 3000, received: 2970, avg: 2 },
    timers: { offer: [[7.0, 7.001]], ack: [[7.1, 7.108]] },
  });

  it('reads one report', () => {
    const r = parsePerf([a]);
    expect(r.rate).toBeCloseTo(3014.32);
    expect(r.drops[0]).toBeCloseTo(1);
    expect(r.drops[1]).toBeCloseTo((100 * 10) / 990);
    expect(r.avgMs).toEqual([2, 4]);
    expect(r.p99Ms[0]).toBeCloseTo(50);
    expect(r.p99Ms[1]).toBeCloseTo(100);
    // the first second of a report starts at its first DISCOVER with a timer
    expect(r.firstSecondP99Ms[0]).toBeCloseTo(3);
    expect(r.firstSecondP99Ms[1]).toBeCloseTo(4);
  });

  it('merges the reports of several perfdhcp processes over all their exchanges', () => {
    const r = parsePerf([a, b]);
    expect(r.rate).toBeCloseTo(6014.32);
    expect(r.drops[0]).toBeCloseTo((100 * 10) / 4000);
    expect(r.drops[1]).toBeCloseTo((100 * 40) / 3990);
    expect(r.avgMs[0]).toBeCloseTo((990 * 2 + 3000 * 1) / 3990);
    expect(r.avgMs[1]).toBeCloseTo((980 * 4 + 2970 * 2) / 3950);
    // each report's first second from its own clock (b's timers are on another clock)
    expect(firstSecond(b)).toEqual([[expect.closeTo(1, 5)], [expect.closeTo(8, 5)]]);
    expect(r.firstSecondP99Ms[1]).toBeCloseTo(8);
  });

  it('counts a report without counters as all lost, never as no loss', () => {
    const r = parsePerf(['Running: perfdhcp\nsomething went wrong']);
    expect(r.drops).toEqual([100, 100]);
    expect(r.rate).toBe(0);
    expect(r.p99Ms.every(Number.isNaN)).toBe(true);
  });
});

describe('p99', () => {
  it('is the nearest-rank percentile', () => {
    expect(p99(Array.from({ length: 100 }, (_, i) => i + 1))).toBe(99);
    expect(p99([5])).toBe(5);
    expect(p99([])).toBeNaN();
  });
});

describe('parseThreads', () => {
  it('takes single and multi and names anything else', () => {
    expect(parseThreads('single')).toBe('single');
    expect(parseThreads('multi')).toBe('multi');
    expect(() => parseThreads('')).toThrow("--perfdhcp-threads: 'single' or 'multi', not ''");
  });
});

describe('diskIrqCpu', () => {
  const interrupts = [
    '           CPU0       CPU1       ',
    ' 36:          0    2483259 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0',
    ' 38:          0       5070 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0',
    ' 39:       2737          0 PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0',
    'LOC:     448679    7244103   Local timer interrupts',
    'RES:    1105852      20873   Rescheduling interrupts',
  ].join('\n');

  it('picks the CPU that handled the block device, not the busiest CPU overall', () => {
    expect(diskIrqCpu(interrupts)).toBe(1);
    expect(diskIrqCpu(interrupts.replace('0    2483259', '2483259          0'))).toBe(0);
    expect(diskIrqCpu(' CPU0 CPU1\n 1: 5 6 IO-APIC ttyS0')).toBe(0);
  });

  it('puts the load on another CPU than the server', () => {
    expect(benchCpus(['--server-cpu', '0'])).toEqual({ server: 0, load: 1 });
    expect(benchCpus(['--server-cpu', '1'])).toEqual({ server: 1, load: 0 });
  });
});
