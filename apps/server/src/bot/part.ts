// The chat bot part: runs the registration bot with long polling when TELEGRAM_BOT_TOKEN is set.
import type { Part } from '../part';
import { createBot, helpText } from './bot';

export const botPart: Part = {
  name: 'bot',
  async start(ctx) {
    const token = ctx.config.telegramBotToken;
    if (!token) return null;
    const bot = createBot(ctx, token);
    // Polling runs until stop(); a bad token or an unreachable platform is logged, not fatal.
    const running = bot
      .start({
        onStart: (info) => {
          ctx.log.info({ bot: info.username }, 'chat bot is polling');
          void bot.api
            .setMyCommands([
              { command: 'start', description: 'Register' },
              { command: 'weblogin', description: 'Get a login link by e-mail' },
              { command: 'mqtt', description: 'MQTT credentials for your station' },
              {
                command: 'help',
                description: helpText(ctx.config.productName).split('\n')[0] ?? 'Help',
              },
            ])
            .catch((err: unknown) => ctx.log.warn({ err }, 'could not set the bot commands'));
        },
      })
      .catch((err: unknown) => ctx.log.error({ err }, 'chat bot stopped'));
    return {
      async stop() {
        if (bot.isRunning()) await bot.stop();
        await running;
      },
    };
  },
};
