import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { Manager } from '../manager';
import { FakeRest } from '../testing/fake-rest';
import { setupWidgetController } from './widget-controller';

const widgetPath = '/apis/example.io/v1/namespaces/ns/widgets/w';
const childPath = '/api/v1/namespaces/ns/configmaps/w';

async function until(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets every queued event and reconcile run (the fake API server answers at once). */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 100));
const writes = (rest: FakeRest, from = 0): string[] =>
  rest
    .writes()
    .slice(from)
    .map((w) => `${w.method} ${w.path}`);

describe('README example controller', () => {
  const rest = new FakeRest({ fieldManager: 'oooi-example' });
  const registry = new Registry();
  const stop = new AbortController();
  const mgr = new Manager({
    rest,
    component: 'example',
    fieldManager: 'oooi-example',
    registry,
    log: pino({ level: 'silent' }),
    health: { port: 0, host: '127.0.0.1' },
  });

  beforeAll(async () => {
    rest.seed(widgetPath, {
      apiVersion: 'example.io/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
      spec: { message: 'hi' },
    });
    setupWidgetController(mgr, () => Date.UTC(2026, 0, 1));
    await mgr.start(stop.signal);
    await until('the child ConfigMap', () => rest.peek(childPath) !== undefined);
    await settle();
  });

  afterAll(async () => {
    stop.abort();
    await mgr.whenStopped();
  });

  test('the README shows the example file verbatim', () => {
    const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
    const source = readFileSync(join(__dirname, 'widget-controller.ts'), 'utf8');
    expect(readme).toContain(source.trim());
  });

  test('the first pass applies the child and the status, each once', () => {
    expect(rest.peek(childPath)).toMatchObject({ data: { message: 'hi' } });
    expect(rest.peek(widgetPath)).toMatchObject({
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            lastTransitionTime: '2026-01-01T00:00:00Z',
            observedGeneration: 1,
          },
        ],
      },
    });
    expect(writes(rest)).toEqual([`PATCH ${childPath}`, `PATCH ${widgetPath}/status`]);
    expect(rest.violations).toEqual([]);
  });

  test('the passes triggered by our own writes send zero writes', async () => {
    const text = await registry.metrics();
    expect(text).toMatch(/oooi_example_reconcile_total\{controller="widget",result="success"\} [2-9]/);
    expect(text).toContain('oooi_example_api_writes_total{verb="apply",kind="ConfigMap"} 1');
    expect(text).toContain('oooi_example_api_writes_skipped_total{verb="apply",kind="ConfigMap"} ');
  });

  test('health: ready, and metrics served from the registry', async () => {
    const port = mgr.health!.port();
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).toContain(
      'oooi_example_reconcile_total',
    );
  });

  test('a spec change rolls out: child and status (new observedGeneration) applied once each', async () => {
    const before = rest.writes().length;
    rest.seed(widgetPath, { ...rest.peek(widgetPath)!, spec: { message: 'changed' } });
    await until(
      'the change to roll out',
      () => (rest.peek(childPath) as { data: { message: string } }).data.message === 'changed',
    );
    await settle();
    expect(writes(rest, before)).toEqual([`PATCH ${childPath}`, `PATCH ${widgetPath}/status`]);
    expect(rest.peek(widgetPath)).toMatchObject({
      status: { conditions: [{ observedGeneration: 2, lastTransitionTime: '2026-01-01T00:00:00Z' }] },
    });
  });
});
