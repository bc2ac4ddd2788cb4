// Hostile and malformed input to `oooi validate` / `oooi render`, in-process: every case ends with a one-line
// message naming the file (and field), the documented exit code (1 invalid input, 2 usage or output problem),
// no stack trace and no output left behind.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { repoRoot } from '../../testing/fixtures';
import { writeOutputDir } from './output-dir';
import { runCli } from './program';
import { MAX_FILE_BYTES } from './read-files';

const now = () => Date.parse('2030-01-02T03:04:05Z');
const ex = (f: string) => join(repoRoot, 'examples', f);
const API = 'hostedcluster.densityops.com/v1alpha1';

function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, now);
  return { code, out: out.join('\n'), err: err.join('\n'), all: [...out, ...err].join('\n') };
}

const dnsServer = (metadata: Record<string, unknown>) => ({
  apiVersion: API,
  kind: 'DNSServer',
  metadata,
  spec: {
    networkConfig: { cidr: '198.51.100.0/24', serverIP: '198.51.100.53', networkAttachmentName: 'vlan100' },
    views: { vlan: { records: [{ name: 'x.lab.example.com', ip: '198.51.100.9' }] } },
  },
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'oooi-hostile-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function expectRefused(r: ReturnType<typeof cli>, code: number, text: string): void {
  expect(r.code).toBe(code);
  expect(r.all).toContain(text);
  expect(r.all).not.toMatch(/^\s+at /m);
}

describe('namespaces are validated offline, never written raw', () => {
  test.each([
    {
      name: 'a Corefile directive in a DNSServer namespace',
      ns: 'lab\n}\nimport /etc/passwd\n. {\n  whoami',
    },
    { name: 'a zone record in a namespace', ns: 'clusters\nevil.example.com. IN A 203.0.113.66\n;' },
    { name: 'a numeric namespace', ns: 42 },
  ])('$name: render exits 1 naming metadata.namespace and writes nothing', ({ ns }) => {
    const f = file('dns.yaml', stringify(dnsServer({ name: 'lab-dns', namespace: ns })));
    const out = join(dir, 'out');
    expectRefused(cli('render', '-f', f, '-o', out), 1, 'metadata.namespace: Invalid value');
    expect(existsSync(out)).toBe(false);
    expectRefused(cli('validate', '-f', f), 1, 'metadata.namespace: Invalid value');
  });

  test('an Infra whose namespace carries a record: refused, nothing rendered', () => {
    const text = readFileSync(ex('infra.yaml'), 'utf8').replace(
      'namespace: clusters',
      'namespace: "clusters\\nevil.example.com. IN A 203.0.113.66\\n;"',
    );
    const f = file('infra.yaml', text);
    expectRefused(cli('render', '-f', f, '-o', join(dir, 'out')), 1, 'metadata.namespace');
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });
});

describe('no crash on any input', () => {
  test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])('kind: %s', (kind) => {
    const f = file('k.yaml', `apiVersion: ${API}\nkind: ${kind}\nmetadata: {name: x}\n`);
    expectRefused(cli('validate', '-f', f), 1, 'kind: Unsupported value');
    expectRefused(cli('render', '-f', f, '-o', join(dir, 'out')), 1, 'kind: Unsupported value');
  });

  test('a valid Infra with status.conditions: garbage is refused by validate and render alike', () => {
    const f = file('i.yaml', `${readFileSync(ex('infra.yaml'), 'utf8')}status:\n  conditions: garbage\n`);
    expectRefused(cli('validate', '-f', f), 1, 'status.conditions');
    expectRefused(cli('render', '-f', f, '-o', join(dir, 'out')), 1, 'status.conditions');
  });

  test('two 1,000-deep nested lists: refused before parsing, exit 1', () => {
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}\n`;
    const f = file('deep.yaml', `${deep}---\n${deep}`);
    expectRefused(cli('validate', '-f', f), 1, 'nested deeper than 64 levels');
    const block = file(
      'block.yaml',
      Array.from({ length: 2000 }, (_, i) => `${'  '.repeat(i)}- `).join('\n'),
    );
    expectRefused(cli('validate', '-f', block), 1, 'nested deeper than 64 levels');
  });

  test('a billion-laughs file: refused with a message, no exception', () => {
    const lines = ['a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    const f = file('lol.yaml', `${lines.join('\n')}\n`);
    expectRefused(cli('validate', '-f', f), 1, 'lol.yaml: document 1: Excessive alias count');
  });

  test('a 50 MB string: refused at the input limit, quickly', () => {
    const f = file('big.yaml', `kind: Infra\nx: "${'a'.repeat(50 * 1024 * 1024)}"\n`);
    expectRefused(cli('validate', '-f', f), 1, `larger than ${MAX_FILE_BYTES} bytes`);
  });

  test('-f /dev/zero stops at the input limit', () => {
    expectRefused(cli('validate', '-f', '/dev/zero'), 1, `/dev/zero: larger than ${MAX_FILE_BYTES} bytes`);
  });

  test('binary and non-UTF-8 input', () => {
    expectRefused(cli('validate', '-f', file('b', Buffer.from([0x6b, 0x3a, 0x00, 0x01]))), 1, 'NUL byte');
    expectRefused(
      cli('validate', '-f', file('c', Buffer.from([0x6b, 0x3a, 0x20, 0xff, 0xfe]))),
      1,
      'not UTF-8',
    );
  });

  test('a directory as -f', () => {
    expectRefused(cli('validate', '-f', dir), 1, 'cannot read');
  });
});

describe('domain containment', () => {
  test('x.apps.alpha.example.com beside alpha.example.com: validate reports both, render excludes both', () => {
    const text = readFileSync(ex('attachments.yaml'), 'utf8').replace(
      'clusterName: bravo\n    baseDomain: example.com',
      'clusterName: x\n    baseDomain: apps.alpha.example.com',
    );
    const f = file('attachments.yaml', text);
    const v = cli('validate', '-f', ex('infra.yaml'), '-f', f);
    expect(v.code).toBe(1);
    expect(v.out).toContain(
      'DuplicateHostname: domain "x.apps.alpha.example.com" of attachment "bravo" lies inside domain "alpha.example.com"',
    );
    const out = join(dir, 'out');
    expect(cli('render', '-f', ex('infra.yaml'), '-f', f, '-o', out).code).toBe(0);
    const status = readFileSync(join(out, 'status.yaml'), 'utf8');
    expect(status).toContain('reason: DuplicateHostname');
    const proxy = readFileSync(join(out, 'proxyserver-clusters-vlan100-proxy.yaml'), 'utf8');
    expect(proxy).not.toContain('alpha.example.com');
    expect(proxy).not.toContain('x.apps');
  });
});

describe('render output: nothing partial, nothing overwritten', () => {
  const args = (out: string) => ['render', '-f', ex('infra.yaml'), '-f', ex('attachments.yaml'), '-o', out];

  test("-o '' is refused (exit 2) and writes nothing into the current directory", () => {
    const before = readdirSync(process.cwd());
    expectRefused(cli(...args('')), 2, 'the output directory name is empty');
    expect(readdirSync(process.cwd())).toEqual(before);
  });

  test('a dangling symlink, a missing parent, a file, and a NUL in the name: exit 2, nothing left', () => {
    symlinkSync(join(dir, 'nowhere'), join(dir, 'link'));
    expectRefused(cli(...args(join(dir, 'link'))), 2, 'a dangling symbolic link');
    expectRefused(cli(...args(join(dir, 'no', 'such', 'parent'))), 2, 'its parent directory does not exist');
    expectRefused(cli(...args(file('plain', 'x'))), 2, 'not a directory');
    expectRefused(cli(...args(join(dir, 'a\u0000b'))), 2, 'NUL byte');
    expect(readdirSync(dir).sort()).toEqual(['link', 'plain']);
  });

  test('an object name too long for a file name: exit 1, nothing written', () => {
    const f = file('dns.yaml', stringify(dnsServer({ name: 'a'.repeat(253), namespace: 'lab' })));
    expectRefused(cli('render', '-f', f, '-o', join(dir, 'out')), 1, 'Too long: a file name');
    expect(readdirSync(dir)).toEqual(['dns.yaml']);
  });

  test('a NUL in an object name is refused as a name', () => {
    const f = file('dns.yaml', stringify(dnsServer({ name: 'a\u0000b', namespace: 'lab' })));
    expectRefused(cli('render', '-f', f, '-o', join(dir, 'out')), 1, 'metadata.name: Invalid value');
  });

  test('a failure while writing leaves neither the directory nor a temporary one', () => {
    const out = join(dir, 'out');
    const problem = writeOutputDir(out, [
      { name: 'a', content: 'x' },
      { name: 'a/b', content: 'y' },
    ]);
    expect(problem).toMatch(/cannot write the output/);
    expect(readdirSync(dir)).toEqual([]);
  });

  test('an existing empty directory is filled; the render is renamed into place', () => {
    const out = join(dir, 'out');
    mkdirSync(out);
    expect(cli(...args(out)).code).toBe(0);
    expect(readdirSync(out)).toContain('status.yaml');
    expect(readdirSync(dir)).toEqual(['out']);
  });
});

describe('--now', () => {
  test.each([
    '2030-02-31T00:00:00Z',
    '2031-02-29T00:00:00Z',
    '2030-13-01T00:00:00Z',
    '2030-01-01T24:00:00Z',
    '2030-01-01T00:60:00Z',
    '2030-01-01T00:00:60Z',
    '2030-01-01T00:00:00+24:00',
  ])('%s is refused (exit 2)', (t) => {
    expectRefused(cli(...['render', '-f', ex('infra.yaml'), '-o', join(dir, 'o'), '--now', t]), 2, '--now');
  });

  test('29 February of a leap year is fine', () => {
    expect(
      cli('render', '-f', ex('infra.yaml'), '-o', join(dir, 'o'), '--now', '2028-02-29T23:59:59+01:00').code,
    ).toBe(0);
  });
});
