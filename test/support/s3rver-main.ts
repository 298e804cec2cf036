/**
 * s3rver in a process of its own (test/support/s3-server.ts forks it): on Node 24 its
 * ListObjectsV2 continuation tokens use DES, which OpenSSL 3 offers only under
 * --openssl-legacy-provider, a flag the tests' own processes should not run with. Reads its
 * directory from argv, sends the port it listens on to the parent, and exits when the parent goes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import S3rver from 's3rver';

const directory = process.argv[2]!;
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  key: readFileSync(path.join(directory, 'tls.key')),
  cert: readFileSync(path.join(directory, 'tls.crt')),
  silent: true,
  directory: path.join(directory, 'store'),
  vhostBuckets: false,
  configureBuckets: [{ name: process.argv[3]!, configs: [] }],
});
const { port } = await server.run();
process.send!({ port });
process.on('disconnect', () => process.exit(0));
