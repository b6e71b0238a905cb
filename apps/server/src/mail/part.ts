// The mail part: builds the mailer once at start-up and offers it as ctx.services.mail.
import type { AppContext } from '../context';
import type { Part } from '../part';
import { createMailer, outboxDir, type Mailer } from './mailer';

declare module '../context' {
  interface Services {
    mail: Mailer;
  }
}

// Servers started without the mail part (tests, the CLI) still send mail the same way.
const fallbackMailers = new WeakMap<AppContext, Mailer>();

export function mailerOf(ctx: AppContext): Mailer {
  const running = ctx.services.mail;
  if (running) return running;
  let mailer = fallbackMailers.get(ctx);
  if (!mailer) {
    mailer = createMailer(ctx.config, ctx.log);
    fallbackMailers.set(ctx, mailer);
  }
  return mailer;
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
    ctx.services.mail = mailer;
    return {
      async stop() {
        delete ctx.services.mail;
        mailer.close();
      },
    };
  },
};
