// The registration bot, fed updates the way the chat platform delivers them, its outgoing API calls
// captured (the chat platform is the outer edge). Accounts, mail and login are the real ones.
import type { Update, UserFromGetMe } from 'grammy/types';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bot } from 'grammy';
import { BOT_TEXTS, createBot } from '../src/bot/bot';
import { decryptSecret } from '../src/lib/crypto';
import { loginLinkIn, mailsTo, waitForMail } from './accounts-support';
import { buildUser } from './factories';
import { DIALECTS, startTestServer, type TestServer } from './harness';

const BOT_INFO: UserFromGetMe = {
  id: 42,
  is_bot: true,
  first_name: 'TinyGS',
  username: 'tinygs_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
  has_topics_enabled: false,
  allows_users_to_create_topics: false,
  can_manage_bots: false,
  supports_join_request_queries: false,
};

interface SentMessage {
  chatId: unknown;
  text: string;
}

let updateId = 1;
let chatUserId = 880_000_000 + Math.floor(Math.random() * 10_000_000);

function message(fromId: number, text: string, chatType: 'private' | 'group' = 'private'): Update {
  updateId += 1;
  const command = /^\/\w+/.exec(text);
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      from: { id: fromId, is_bot: false, first_name: 'Ada', username: `ada${fromId}` },
      chat:
        chatType === 'private'
          ? { id: fromId, type: 'private', first_name: 'Ada' }
          : { id: -100123, type: 'group', title: 'TinyGS community' },
      text,
      ...(command
        ? { entities: [{ type: 'bot_command' as const, offset: 0, length: command[0].length }] }
        : {}),
    },
  };
}

describe.each(DIALECTS)('registration bot on %s', (dialect) => {
  let server: TestServer;
  let bot: Bot;
  const sent: SentMessage[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    bot = createBot(server.ctx, '123456:TEST-TOKEN', { botInfo: BOT_INFO });
    bot.api.config.use(async (_prev, method, payload) => {
      const p = payload as { chat_id?: unknown; text?: string };
      if (method === 'sendMessage') sent.push({ chatId: p.chat_id, text: p.text ?? '' });
      const result = {
        message_id: 1,
        date: 0,
        chat: { id: p.chat_id, type: 'private' },
        text: p.text,
      };
      return { ok: true, result } as never;
    });
  });
  afterAll(async () => {
    await server?.stop();
  });
  beforeEach(() => {
    sent.length = 0;
    chatUserId += 1;
  });

  async function say(
    fromId: number,
    text: string,
    chatType: 'private' | 'group' = 'private',
  ): Promise<string> {
    const before = sent.length;
    await bot.handleUpdate(message(fromId, text, chatType));
    return sent
      .slice(before)
      .map((m) => m.text)
      .join('\n');
  }
  const userRow = (id: number) =>
    server.ctx.database.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', String(id))
      .executeTakeFirst();

  it('/start registers the chat user under their numeric id, once', async () => {
    const reply = await say(chatUserId, '/start');
    expect(reply).toContain(`user id ${chatUserId}`);
    expect(sent[0]?.chatId).toBe(chatUserId);
    const row = await userRow(chatUserId);
    expect(row).toMatchObject({
      id: String(chatUserId),
      telegramChatId: String(chatUserId),
      displayName: `ada${chatUserId}`,
      email: null,
    });
    const again = await say(chatUserId, '/start');
    expect(again).toContain('Welcome back');
    const rows = await server.ctx.database.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', String(chatUserId))
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('/weblogin asks for an e-mail, registers it and mails a working login link', async () => {
    await say(chatUserId, '/start');
    expect(await say(chatUserId, '/weblogin')).toBe(BOT_TEXTS.askEmail);
    const email = `chat${chatUserId}@example.org`;
    const reply = await say(chatUserId, email.toUpperCase());
    expect(reply).toContain(`A login link was sent to ${email}`);
    expect((await userRow(chatUserId))?.email).toBe(email);

    const link = loginLinkIn(await waitForMail(server, email));
    expect(link.searchParams.get('userId')).toBe(String(chatUserId));
    const login = await server.app.inject({
      method: 'POST',
      url: '/v1/login',
      payload: { loginToken: link.searchParams.get('loginToken'), userId: String(chatUserId) },
    });
    expect(login.statusCode).toBe(200);
    // A second request within 30 seconds is refused.
    expect(await say(chatUserId, `/weblogin ${email}`)).toBe(BOT_TEXTS.wait);
  });

  it('/weblogin mails at most 3 login links an hour per chat user, whatever the addresses', async () => {
    await say(chatUserId, '/start');
    const address = (n: number) => `many${n}.${chatUserId}@example.org`;
    for (let n = 1; n <= 3; n += 1) {
      expect(await say(chatUserId, `/weblogin ${address(n)}`)).toContain('A login link was sent');
      await waitForMail(server, address(n));
    }
    expect(await say(chatUserId, `/weblogin ${address(4)}`)).toBe(BOT_TEXTS.tooManyLinks);
    expect((await userRow(chatUserId))?.email).toBe(address(3));
    // Nothing reaches the fourth address (the bot mails before it answers); others are not affected.
    expect(mailsTo(server, address(4))).toHaveLength(0);
    const other = chatUserId + 5_000_000;
    await say(other, '/start');
    expect(await say(other, `/weblogin other.${chatUserId}@example.org`)).toContain(
      'A login link was sent',
    );
  });

  it('/weblogin checks the address and refuses one another account uses', async () => {
    await say(chatUserId, '/start');
    expect(await say(chatUserId, '/weblogin nonsense')).toContain('Invalid email format');
    await buildUser(server.ctx.database.db, { email: `taken${chatUserId}@example.org` });
    expect(await say(chatUserId, `taken${chatUserId}@example.org`)).toBe(BOT_TEXTS.emailTaken);
    expect((await userRow(chatUserId))?.email).toBeNull();
  });

  it('asks unregistered users to /start first', async () => {
    expect(await say(chatUserId, '/weblogin')).toBe(BOT_TEXTS.notRegistered);
    expect(await say(chatUserId, '/mqtt')).toBe(BOT_TEXTS.notRegistered);
    expect(await userRow(chatUserId)).toBeUndefined();
  });

  it('/mqtt answers the broker credentials in a private chat only', async () => {
    await say(chatUserId, '/start');
    const row = await userRow(chatUserId);
    const password = decryptSecret(row?.mqttPasswordEnc ?? '', server.ctx.config.serverSecret);
    const reply = await say(chatUserId, '/mqtt');
    expect(reply).toContain(`User: ${chatUserId}`);
    expect(reply).toContain(`Password: ${password}`);
    const inGroup = await say(chatUserId, '/mqtt', 'group');
    expect(inGroup).toBe(BOT_TEXTS.privateOnly);
    expect(inGroup).not.toContain(password);
  });

  it('/help lists the commands', async () => {
    const reply = await say(chatUserId, '/help');
    for (const command of ['/start', '/weblogin', '/mqtt', '/help'])
      expect(reply).toContain(command);
  });
});
