import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * TLS 1.2 and 1.3 with AEAD ciphers and forward secrecy only (ECDHE with AES-GCM or ChaCha20-Poly1305),
 * in the server's order of preference: no CBC suites (LUCKY13), no static-RSA key exchange. The TLS 1.3
 * suites must be named too, or Node would offer none of them.
 */
export const TLS_POLICY = {
  minVersion: 'TLSv1.2',
  honorCipherOrder: true,
  ciphers: [
    'TLS_AES_128_GCM_SHA256',
    'TLS_AES_256_GCM_SHA384',
    'TLS_CHACHA20_POLY1305_SHA256',
    'ECDHE-ECDSA-AES128-GCM-SHA256',
    'ECDHE-RSA-AES128-GCM-SHA256',
    'ECDHE-ECDSA-AES256-GCM-SHA384',
    'ECDHE-RSA-AES256-GCM-SHA384',
    'ECDHE-ECDSA-CHACHA20-POLY1305',
    'ECDHE-RSA-CHACHA20-POLY1305',
  ].join(':'),
} as const;

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Set when the certificate is the generated self-signed one: where it lives, to print trust instructions. */
  selfSignedPath: string | undefined;
}

/**
 * The configured certificate (TLS_CERT_FILE/TLS_KEY_FILE), or a self-signed one for localhost created
 * once under DATA_DIR/tls and reused on later starts. The generator (selfsigned, with its X.509 and
 * ASN.1 libraries) is loaded only to create one: a process that reuses or is given a certificate
 * keeps its ~0.5 MB of sources and what they build out of memory.
 */
export async function loadTls(config: Config): Promise<TlsMaterial> {
  if (config.tls) {
    return { cert: readFileSync(config.tls.certFile, 'utf8'), key: readFileSync(config.tls.keyFile, 'utf8'), selfSignedPath: undefined };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certPath = path.join(dir, 'localhost.crt');
  const keyPath = path.join(dir, 'localhost.key');
  if (!existsSync(certPath) || !existsSync(keyPath)) {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 825 * 24 * 3600 * 1000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    });
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(keyPath, pems.private, { mode: 0o600 });
    writeFileSync(certPath, pems.cert);
  }
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8'), selfSignedPath: certPath };
}
