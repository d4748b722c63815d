import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import type { StoredMessage } from './environment';

const MAX_MESSAGE_BYTES = 5 * 1024 * 1024;

interface SmtpPeer {
  port: number;
  close(): Promise<void>;
}

/**
 * A real SMTP server on the loopback interface: the portal talks to it exactly as it would to a
 * relay. Each message is written to `mailDir` as JSON (written under a temporary name, then
 * renamed, so a reader never sees half a message).
 */
export async function startSmtpPeer(mailDir: string): Promise<SmtpPeer> {
  await fs.mkdir(mailDir, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    size: MAX_MESSAGE_BYTES,
    maxClients: 20,
    logger: false,
    banner: 'e2e SMTP peer',
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', callback);
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          const error = new Error('Message exceeds the size limit') as Error & { responseCode: number };
          error.responseCode = 552;
          callback(error);
          return;
        }
        const message: StoredMessage = {
          receivedAt: new Date().toISOString(),
          envelope: {
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          },
          raw: Buffer.concat(chunks).toString('utf8'),
        };
        const name = `${Date.now()}-${randomUUID()}.json`;
        const temporary = path.join(mailDir, `.${name}.tmp`);
        fs.writeFile(temporary, JSON.stringify(message))
          .then(() => fs.rename(temporary, path.join(mailDir, name)))
          .then(() => callback(), callback);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors on one connection (a client hanging up) must not bring the test run down.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
