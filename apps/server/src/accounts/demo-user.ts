// `npm start` on embedded defaults: a demo account exists and its login link is printed, so a
// newcomer can log in without the chat bot or a mail server.
import type { Part } from '../part';
import { issueLoginLink } from './login';
import { ensureUserByEmail } from './users';

/** A shape every e-mail rule accepts (x@y.z); .localhost never resolves to a real mailbox. */
export const DEMO_EMAIL = 'demo@tinygs.localhost';

export const demoUserPart: Part = {
  name: 'demo-user',
  async start(ctx) {
    // With a real mail server this is a production install: no demo account there.
    if (ctx.config.smtpUrl) return null;
    const { user, created } = await ensureUserByEmail(ctx, DEMO_EMAIL, { emailVal: true });
    const url = await issueLoginLink(ctx, user.id);
    ctx.log.info(
      `${created ? 'Created the demo user' : 'Demo user'} ${DEMO_EMAIL} (user id ${user.id}). Log in within 15 minutes: ${url}`,
    );
    return { async stop() {} };
  },
};
