// The registration bot (grammY). The chat platform's numeric user id becomes the account's user id
// (and the MQTT user name). /start registers, /weblogin registers an e-mail and mails a login link,
// /mqtt tells the broker credentials, /help lists the commands.
import { LoginEmailSchema } from '@tinygs/contracts';
import { Bot, type Context } from 'grammy';
import type { UserFromGetMe } from 'grammy/types';
import type { AppContext } from '../context';
import { sendLoginLink } from '../accounts/login';
import { accountsState } from '../accounts/state';
import { createUser, mqttCredentialsOf } from '../accounts/users';
import {
  findUserByEmail,
  findUserById,
  setUserEmail,
  updateTelegramChat,
} from '../repositories/users';

/** How long the bot waits for the e-mail address after /weblogin. */
const EMAIL_PROMPT_TTL_MS = 10 * 60 * 1000;

export const BOT_TEXTS = {
  notRegistered: 'You are not registered yet. Send /start first.',
  askEmail: 'Send me the e-mail address you want to log in with.',
  emailTaken: 'This e-mail address is already registered to another account.',
  wait: 'A login link was just sent to this address. Please wait 30 seconds and try again.',
  tooManyLinks: 'You asked for several login links in the last hour. Please try again later.',
  privateOnly: 'For your safety I only send credentials in a private chat. Write to me directly.',
  failed: 'Sorry, something went wrong. Please try again later.',
} as const;

export function helpText(productName: string): string {
  return [
    `${productName} bot commands:`,
    '/start - register your account (your chat user id becomes your user id)',
    '/weblogin - register your e-mail address and get a login link for the web site by e-mail',
    '/mqtt - your MQTT credentials for the station firmware',
    '/help - this list',
  ].join('\n');
}

function displayName(from: { first_name: string; last_name?: string; username?: string }): string {
  return from.username ?? [from.first_name, from.last_name].filter(Boolean).join(' ');
}

export function createBot(
  ctx: AppContext,
  token: string,
  options: { botInfo?: UserFromGetMe } = {},
): Bot {
  const bot = new Bot(token, options.botInfo ? { botInfo: options.botInfo } : {});
  const db = ctx.database.db;
  const awaitingEmail = new Map<string, number>();
  const { productName } = ctx.config;

  async function registeredUser(c: Context) {
    if (!c.from) return undefined;
    const user = await findUserById(db, String(c.from.id));
    if (!user) await c.reply(BOT_TEXTS.notRegistered);
    return user;
  }

  async function registerEmail(c: Context, userId: string, text: string): Promise<void> {
    const parsed = LoginEmailSchema.safeParse(text);
    if (!parsed.success) {
      await c.reply(
        `${parsed.error.issues[0]?.message ?? 'Invalid email format'}. ${BOT_TEXTS.askEmail}`,
      );
      awaitingEmail.set(userId, Date.now() + EMAIL_PROMPT_TTL_MS);
      return;
    }
    awaitingEmail.delete(userId);
    const email = parsed.data.toLowerCase();
    const owner = await findUserByEmail(db, email);
    if (owner && owner.id !== userId) {
      await c.reply(BOT_TEXTS.emailTaken);
      return;
    }
    // Per chat user as well as per address: one chat account could otherwise mail a login link to
    // a new address every time.
    const { loginPerEmail, loginMailPerChatUser } = accountsState(ctx).limits;
    if ((await loginMailPerChatUser.retryAfterMs(userId)) > 0) {
      await c.reply(BOT_TEXTS.tooManyLinks);
      return;
    }
    if ((await loginPerEmail.consume(email)) > 0) {
      await c.reply(BOT_TEXTS.wait);
      return;
    }
    await loginMailPerChatUser.record(userId);
    if (!owner) await setUserEmail(db, userId, email);
    const user = await findUserById(db, userId);
    if (!user) return;
    await sendLoginLink(ctx, { ...user, email });
    await c.reply(`A login link was sent to ${email}. It works once and for 15 minutes.`);
  }

  bot.command('start', async (c) => {
    if (!c.from || !c.chat) return;
    const id = String(c.from.id);
    const chat = { telegramChatId: String(c.chat.id), displayName: displayName(c.from) };
    const existing = await findUserById(db, id);
    if (existing) {
      await updateTelegramChat(db, id, chat);
      await c.reply(`Welcome back! Your user id is ${id}.\n\n${helpText(productName)}`);
      return;
    }
    await createUser(ctx, { id, ...chat });
    await c.reply(
      `Welcome to ${productName}! You are registered with user id ${id}.\n` +
        `Use /weblogin to log in to the web site and /mqtt for your station's credentials.\n\n${helpText(productName)}`,
    );
  });

  bot.command('weblogin', async (c) => {
    const user = await registeredUser(c);
    if (!user) return;
    const inline = c.match.trim();
    if (inline) {
      await registerEmail(c, user.id, inline);
      return;
    }
    awaitingEmail.set(user.id, Date.now() + EMAIL_PROMPT_TTL_MS);
    await c.reply(BOT_TEXTS.askEmail);
  });

  bot.command('mqtt', async (c) => {
    if (c.chat?.type !== 'private') {
      await c.reply(BOT_TEXTS.privateOnly);
      return;
    }
    const user = await registeredUser(c);
    if (!user) return;
    const creds = mqttCredentialsOf(ctx, user);
    await c.reply(
      `MQTT credentials for your stations:\nUser: ${creds.user}\nPassword: ${creds.pass}`,
    );
  });

  bot.command('help', async (c) => {
    await c.reply(helpText(productName));
  });

  // The answer to the /weblogin prompt: the next plain message of that user.
  bot.on('message:text', async (c) => {
    const userId = String(c.from.id);
    const until = awaitingEmail.get(userId);
    if (until === undefined || until < Date.now()) {
      awaitingEmail.delete(userId);
      if (c.chat.type === 'private') await c.reply(helpText(productName));
      return;
    }
    await registerEmail(c, userId, c.message.text);
  });

  bot.catch(async (err) => {
    ctx.log.error({ err: err.error, update: err.ctx.update.update_id }, 'chat bot update failed');
    await err.ctx.reply(BOT_TEXTS.failed).catch(() => undefined);
  });

  return bot;
}
