// Outgoing mail. With SMTP_URL the mails go out through nodemailer's SMTP transport; without it
// (the embedded default) each message is rendered to a complete .eml file in DATA_DIR/outbox so a
// developer can open it and nothing leaves the machine.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { MailContent } from './templates';

export interface MailMessage extends MailContent {
  to: string;
}

export interface Mailer {
  /** 'outbox' when mails are written to files instead of being sent. */
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  /** Checks the SMTP connection (no-op for the outbox). */
  verify(): Promise<void>;
  close(): void;
}

export function outboxDir(config: Config): string {
  return join(config.dataDir, 'outbox');
}

export function createMailer(config: Config, log: Logger): Mailer {
  if (config.smtpUrl) {
    const transport = nodemailer.createTransport(config.smtpUrl);
    return {
      kind: 'smtp',
      async send(message) {
        await transport.sendMail({ from: config.mailFrom, ...message });
      },
      async verify() {
        await transport.verify();
      },
      close() {
        transport.close();
      },
    };
  }
  const dir = outboxDir(config);
  const transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail({ from: config.mailFrom, ...message });
      mkdirSync(dir, { recursive: true });
      const name = `${Date.now()}-${randomBytes(4).toString('hex')}.eml`;
      // Written under a temporary name and renamed so a reader never sees half a message.
      const partial = join(dir, `.${name}.part`);
      writeFileSync(partial, info.message as Buffer, { mode: 0o600 });
      renameSync(partial, join(dir, name));
      log.debug({ file: name }, 'mail written to the outbox');
    },
    async verify() {},
    close() {
      transport.close();
    },
  };
}
