import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP peer: refuses recipients for a while (450) or for good (550) while `refusing`, or only
 * the addresses of `refusingAddresses`; keeps every message it accepts.
 */
export class SmtpPeer {
  refusing: false | 450 | 550 = false;
  /** addresses (lower case) refused whatever `refusing` says: one member's mailbox that bounces */
  refusingAddresses = new Map<string, 450 | 550>();
  received: string[] = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo: (address, _session, callback) => {
      const refusing = this.refusingAddresses.get(address.address.toLowerCase()) ?? this.refusing;
      if (!refusing) return callback();
      const message = refusing === 450 ? 'Mailbox temporarily unavailable' : 'No such user here';
      callback(Object.assign(new Error(message), { responseCode: refusing }));
    },
    onData: (stream, _session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        this.received.push(Buffer.concat(chunks).toString('utf8'));
        callback();
      });
    },
  });

  /** On a port of its own, or on `port` (a peer coming back where it was). */
  async listen(port = 0): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
  }

  close() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Enough MIME reading for a test: undo quoted-printable soft breaks and escapes. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}
