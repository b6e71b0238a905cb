// The mail part: builds the mailer once at start-up and offers it as the `mail` service.
import type { AppContext } from '../context';
import { perContext } from '../lib/per-context';
import type { Part } from '../part';
import { createMailer, outboxDir, type Mailer } from './mailer';

declare module '../context' {
  interface Services {
    mail: Mailer;
  }
}

// Servers started without the mail part (tests, the CLI) still send mail the same way.
const fallbackMailer = perContext((ctx) => createMailer(ctx.config, ctx.log));

export function mailerOf(ctx: AppContext): Mailer {
  return ctx.services.mail ?? fallbackMailer(ctx);
}

export const mailPart: Part = {
  name: 'mail',
  async start(ctx) {
    const mailer = createMailer(ctx.config, ctx.log);
    if (mailer.kind === 'smtp') {
      // A wrong SMTP_URL should be visible at start-up, not at the first login request.
      await mailer
        .verify()
        .catch((err: unknown) =>
          ctx.log.warn({ err }, 'SMTP server does not answer; mails may fail'),
        );
    } else {
      ctx.log.info(
        { outbox: outboxDir(ctx.config) },
        'no SMTP_URL: mails are written to the outbox folder',
      );
    }
    return {
      services: { mail: mailer },
      async stop() {
        mailer.close();
      },
    };
  },
};
