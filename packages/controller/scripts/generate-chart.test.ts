// The chart's default image names are written from src/workload/images.ts (one set of names): values.yaml's
// image.repository and childImages, and Chart.yaml's appVersion.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CONTROLLER_IMAGE_REPOSITORY, OOOI_IMAGE_VERSION, builtinImages } from '../src/workload/images';
import { chartChildImages, renderChartVersion, renderValuesImages } from './generate-chart';

const chart = join(__dirname, '../../../charts/oooi');

test('every default image is fully qualified (a registry host in its first path component)', () => {
  for (const image of [...(Object.values(builtinImages) as string[]), CONTROLLER_IMAGE_REPOSITORY]) {
    expect(image.split('/')[0]).toMatch(/\./);
  }
});

test('values.yaml gets the controller’s defaults, comments and other values kept', () => {
  const stale = [
    '# the operator',
    'image:',
    '  repository: oooi-controller',
    "  tag: ''",
    'childImages:',
    '  # oooi-dhcp',
    '  dhcp: oooi-dhcp:0.1.0',
    '  dhcpServer: oooi-dhcp:0.1.0',
    '  dns: coredns/coredns:1.14.7',
    '  proxy: envoyproxy/envoy:v1.36.4',
    '  xds: oooi-xds:0.1.0',
    '  keepalived: oooi-keepalived:0.1.0',
    '  configSync: oooi-controller:0.1.0',
    'logLevel: info',
    '',
  ].join('\n');
  const out = renderValuesImages(stale);
  expect(parse(out)).toEqual({
    image: { repository: CONTROLLER_IMAGE_REPOSITORY, tag: '' },
    childImages: chartChildImages,
    logLevel: 'info',
  });
  expect(out).toContain('  # oooi-dhcp\n');
});

test('a values.yaml without one of the image keys is an error naming it', () => {
  expect(() => renderValuesImages('image:\n  repository: x\nchildImages:\n  dhcp: y\n')).toThrow(
    'charts/oooi/values.yaml: no childImages.dhcpServer',
  );
});

test('the chart as committed: its defaults are the controller’s, appVersion the images’ version', () => {
  const values = parse(readFileSync(join(chart, 'values.yaml'), 'utf8')) as {
    image: { repository: string };
    childImages: unknown;
  };
  expect(values.image.repository).toBe(CONTROLLER_IMAGE_REPOSITORY);
  expect(values.childImages).toEqual(chartChildImages);
  const chartYaml = readFileSync(join(chart, 'Chart.yaml'), 'utf8');
  expect(renderChartVersion(chartYaml)).toBe(chartYaml);
  expect((parse(chartYaml) as { appVersion: string }).appVersion).toBe(OOOI_IMAGE_VERSION);
});
