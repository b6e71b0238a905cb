// An SMTP server for the suites that send mail over SMTP_URL: the outer edge, speaking real SMTP
// (smtp-server), keeping every message it accepts with its envelope.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** the message as sent (headers and body, transfer encodings left in) */
  data: string;
  /** the same with quoted-printable soft breaks and escapes undone */
  decoded: string;
}

export interface FakeSmtp {
  /** smtp://127.0.0.1:PORT */
  url: string;
  received: ReceivedMail[];
  /** addresses answered 550 at RCPT TO (a mailbox that does not take mail) */
  refused: Set<string>;
  /** the mails to `address`, oldest first */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  const refused = new Set<string>();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!refused.has(address.address)) return callback();
      const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(error);
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          decoded: decodeQuotedPrintable(data),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const port = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refused,
    to: (address) => received.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
