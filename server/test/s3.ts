import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Options } from '../integrations/storage/s3';

const TEST_BUCKET = 'artifacts';

/**
 * A local S3-compatible server with one empty bucket, in a fresh temporary folder.
 *
 * s3rver 3 does not implement AbortMultipartUpload (it answers 405 and keeps the parts), so a small
 * proxy in front of it does what S3 does: `DELETE /bucket/key?uploadId=…` removes that upload's parts.
 * Whether a failed upload leaves parts behind is then a fact about the storage code, not the server.
 */
export async function startS3(): Promise<{ options: S3Options; directory: string; close: () => Promise<void> }> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: TEST_BUCKET }],
  });
  const { port } = await server.run();
  const proxy = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const uploadId = url.searchParams.get('uploadId');
    if (req.method === 'DELETE' && uploadId) {
      const bucket = url.pathname.split('/')[1];
      if (/^[0-9a-f]+$/.test(uploadId)) {
        fs.rmSync(path.join(directory, bucket, '._S3rver_uploads', uploadId), { recursive: true, force: true });
      }
      res.writeHead(204).end();
      return;
    }
    const forward = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.on('error', () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    // s3rver takes any credentials, but the SDK signs with some
    options: {
      bucket: TEST_BUCKET,
      endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
      region: 'us-east-1',
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    directory,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
