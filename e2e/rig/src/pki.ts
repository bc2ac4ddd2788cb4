// Throw-away PKI for one control plane, made with openssl: a CA, the apiserver's serving certificate, an admin
// client certificate in system:masters and a service-account signing key pair. ECDSA P-256 keys (fast to make,
// accepted by every component).
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rigBin } from './bins';
import { runOk } from './proc';

export interface Pki {
  readonly dir: string;
  readonly caCert: string;
  readonly caKey: string;
  readonly servingCert: string;
  readonly servingKey: string;
  readonly adminCert: string;
  readonly adminKey: string;
  readonly saKey: string;
  readonly saPub: string;
}

export function pkiPaths(dir: string): Pki {
  const f = (n: string): string => join(dir, n);
  return {
    dir,
    caCert: f('ca.crt'),
    caKey: f('ca.key'),
    servingCert: f('apiserver.crt'),
    servingKey: f('apiserver.key'),
    adminCert: f('admin.crt'),
    adminKey: f('admin.key'),
    saKey: f('sa.key'),
    saPub: f('sa.pub'),
  };
}

const curve = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

async function signed(
  openssl: string,
  p: Pki,
  leaf: { name: string; subject: string; ext: string },
): Promise<void> {
  const csr = join(p.dir, `${leaf.name}.csr`);
  const ext = join(p.dir, `${leaf.name}.ext`);
  await writeFile(ext, leaf.ext);
  const key = join(p.dir, `${leaf.name}.key`);
  await runOk([openssl, 'req', ...curve, '-keyout', key, '-out', csr, '-subj', leaf.subject]);
  await runOk([
    // An explicit random serial per leaf: -CAcreateserial makes the parallel signings race on ca.srl.
    openssl, 'x509', '-req', '-in', csr, '-CA', p.caCert, '-CAkey', p.caKey, '-set_serial', `0x${randomBytes(8).toString('hex')}`,
    '-out', join(p.dir, `${leaf.name}.crt`), '-days', '365', '-extfile', ext,
  ]); // prettier-ignore
}

/**
 * Creates the PKI in `dir` (about 0.1 s). SERVING_NAMES are extra DNS names of the apiserver's certificate (a
 * hosted cluster's stand-in serves `api.<domain>`, as a hosted kube-apiserver's certificate names its public host).
 */
export async function makePki(dir: string, servingNames: readonly string[] = []): Promise<Pki> {
  const openssl = await rigBin('openssl');
  const p = pkiPaths(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await runOk([
    openssl, 'req', '-x509', ...curve, '-keyout', p.caKey, '-out', p.caCert, '-days', '3650', '-subj', '/CN=oooi-rig-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]); // prettier-ignore
  for (const n of servingNames)
    if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(n))
      throw new Error(`rig: ${JSON.stringify(n)} is not a DNS name`);
  const extra = servingNames.map((n) => `,DNS:${n}`).join('');
  const san = 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,';
  await Promise.all([
    signed(openssl, p, {
      name: 'apiserver',
      subject: '/CN=kube-apiserver',
      ext: `${san}DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local,IP:10.96.0.1${extra}\nextendedKeyUsage=serverAuth\n`,
    }),
    signed(openssl, p, {
      name: 'admin',
      subject: '/O=system:masters/CN=oooi-rig-admin',
      ext: 'extendedKeyUsage=clientAuth\n',
    }),
    runOk([openssl, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', p.saKey]),
  ]);
  await runOk([openssl, 'ec', '-in', p.saKey, '-pubout', '-out', p.saPub]);
  return p;
}

/** A kubeconfig for the admin user, certificates embedded (usable from any directory, and inside netns). */
export async function adminKubeconfig(p: Pki, server: string, name: string): Promise<string> {
  const b64 = async (f: string): Promise<string> => (await readFile(f)).toString('base64');
  const [ca, crt, key] = await Promise.all([b64(p.caCert), b64(p.adminCert), b64(p.adminKey)]);
  return [
    'apiVersion: v1',
    'kind: Config',
    `current-context: ${name}`,
    'clusters:',
    `- name: ${name}`,
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    `- name: ${name}-admin`,
    '  user:',
    `    client-certificate-data: ${crt}`,
    `    client-key-data: ${key}`,
    'contexts:',
    `- name: ${name}`,
    '  context:',
    `    cluster: ${name}`,
    `    user: ${name}-admin`,
    '    namespace: default',
    '',
  ].join('\n');
}
