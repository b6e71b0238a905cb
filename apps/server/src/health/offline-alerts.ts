// Offline alerts: every minute, on the elected instance, the stations offline longer than their
// owner's chosen delay (read from the recorded transitions) get one alert per outage, by e-mail
// and through the chat bot when it is configured and the owner's account is linked to a chat; an
// alerted station that comes back gets one back note. At most OFFLINE_ALERTS_PER_DAY alert mails
// per owner and UTC day; the stations found in one round go in one mail. Every decision is stored
// before the mail goes out (and undone when it cannot be sent), so a restart or another instance
// taking over sends nothing twice.
import { STATION_OFFLINE_AFTER_MS } from '@tinygs/contracts';
import { Api } from 'grammy';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { AppContext } from '../context';
import type { UserRow } from '../db/schema';
import { schedulePeriodic } from '../jobs/periodic';
import { mailerOf } from '../mail/part';
import { offlineAlertMail, type AlertStation } from '../mail/templates';
import type { Part } from '../part';
import {
  decideOutages,
  dueOutages,
  markReturned,
  pruneOfflineAlerts,
  returnedStations,
  undoAlert,
  type OutageRow,
} from '../repositories/offline-alerts';
import { findUserById } from '../repositories/users';
import { HEALTH_RAW_RETENTION_DAYS } from './retention';
import { DAY_MS, utcDay } from './uptime';

/** Outages (and returns) handled per round; the rest wait for the next round. */
const ROWS_PER_ROUND = 500;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export interface OfflineAlertsOptions {
  /** the job's clock (tests move it instead of waiting) */
  now?: () => number;
  /** between rounds (default a minute) */
  intervalMs?: number;
  /**
   * before the first round (default STATION_OFFLINE_AFTER_MS): after a restart the stations get
   * the time to reconnect before their outages count
   */
  firstRunInMs?: number;
  /** the chat platform's API address (default the platform's own) */
  botApiRoot?: string;
}

interface Round {
  ctx: AppContext;
  now: number;
  bot: Api | null;
  log: Logger;
}

function groupByOwner<T extends { userId: string }>(rows: readonly T[]): Map<string, T[]> {
  const owners = new Map<string, T[]>();
  for (const row of rows) {
    const list = owners.get(row.userId);
    if (list) list.push(row);
    else owners.set(row.userId, [row]);
  }
  return owners;
}

function stationUrl(ctx: AppContext, row: OutageRow): string {
  return `${ctx.config.publicUrl}/station/${encodeURIComponent(row.name)}@${encodeURIComponent(row.userId)}`;
}

/**
 * The chat the alerts go to: the owner's private chat with the bot only (on the chat platform a
 * private chat has the user's id), never a group the owner happened to send /start in.
 */
export function alertChatOf(
  config: Pick<Config, 'telegramBotToken'>,
  user: Pick<UserRow, 'id' | 'telegramChatId'>,
): string | null {
  if (config.telegramBotToken === null) return null;
  return user.telegramChatId === user.id ? user.telegramChatId : null;
}

/**
 * Sends one message to the owner: the mail, and the bot's when linked. Throws when neither went
 * out (the caller undoes the decision, to try again next round).
 */
async function tell(
  round: Round,
  userId: string,
  stations: AlertStation[],
  kind: 'offline' | 'back',
  lastOfDay?: number,
): Promise<void> {
  const { ctx, bot, log } = round;
  const user = await findUserById(ctx.database.db, userId);
  const chatId = bot && user ? alertChatOf(ctx.config, user) : null;
  if (!user?.email && !chatId) {
    // Nothing to try again: the decision stands (an account without a login address cannot
    // have switched alerts on in the first place).
    log.info({ userId }, 'offline alert: the owner has neither an e-mail address nor a chat');
    return;
  }
  const content = offlineAlertMail({
    productName: ctx.config.productName,
    consoleUrl: `${ctx.config.publicUrl}/user/${encodeURIComponent(userId)}`,
    stations,
    kind,
    now: round.now,
    ...(lastOfDay !== undefined ? { lastOfDay } : {}),
  });
  const { chat, ...mail } = content;
  let told = false;
  let failure: unknown = null;
  if (user?.email) {
    try {
      await mailerOf(ctx).send({ to: user.email, ...mail });
      told = true;
    } catch (err) {
      failure = err;
    }
  }
  if (bot && chatId) {
    try {
      await bot.sendMessage(chatId, chat, { link_preview_options: { is_disabled: true } });
      told = true;
    } catch (err) {
      log.warn({ err, userId }, 'offline alert: chat message not sent');
    }
  }
  if (!told) throw failure ?? new Error('not sent');
}

async function sendBackNotes(round: Round): Promise<number> {
  const { ctx, log } = round;
  const db = ctx.database.db;
  let notes = 0;
  const returned = await returnedStations(db, ROWS_PER_ROUND);
  for (const [userId, rows] of groupByOwner(returned)) {
    const wanted = rows.filter((r) => r.enabled);
    const dropped = rows.filter((r) => !r.enabled);
    if (dropped.length > 0) await markReturned(db, dropped, false);
    if (wanted.length === 0) continue;
    await markReturned(db, wanted, true);
    const stations = wanted.map((r) => ({
      name: r.name,
      url: stationUrl(ctx, r),
      since: r.outageAt,
      back: r.backAt,
    }));
    try {
      await tell(round, userId, stations, 'back');
      notes += 1;
    } catch (err) {
      log.warn({ err, userId }, 'offline alert: back note not sent; tried again next round');
      await markReturned(db, wanted, null);
    }
  }
  return notes;
}

async function sendAlerts(round: Round): Promise<number> {
  const { ctx, now, log } = round;
  const db = ctx.database.db;
  const perDay = ctx.config.offlineAlertsPerDay;
  let alerts = 0;
  const due = await dueOutages(db, now, ROWS_PER_ROUND);
  for (const [userId, rows] of groupByOwner(due)) {
    const count = await decideOutages(db, userId, rows, perDay, now, utcDay(now));
    if (count === null) {
      log.info({ userId, stations: rows.length }, 'offline alert passed over: daily limit reached');
      continue;
    }
    const stations = rows.map((r) => ({
      name: r.name,
      url: stationUrl(ctx, r),
      since: r.outageAt,
    }));
    try {
      await tell(round, userId, stations, 'offline', count >= perDay ? perDay : undefined);
      alerts += 1;
    } catch (err) {
      log.warn({ err, userId }, 'offline alert not sent; tried again next round');
      await undoAlert(db, userId, rows, utcDay(now));
    }
  }
  return alerts;
}

/** One round at `now`: back notes first (a station back is no longer due), then alerts. */
export async function offlineAlertsRound(
  ctx: AppContext,
  now: number,
  bot: Api | null,
  log: Logger = ctx.log,
): Promise<{ alerts: number; backNotes: number }> {
  const round = { ctx, now, bot, log };
  const backNotes = await sendBackNotes(round);
  const alerts = await sendAlerts(round);
  return { alerts, backNotes };
}

export function createOfflineAlertsPart(options: OfflineAlertsOptions = {}): Part {
  return {
    name: 'offline-alerts',
    async start(ctx) {
      const log = ctx.log.child({ part: 'offline-alerts' });
      const clock = options.now ?? Date.now;
      const token = ctx.config.telegramBotToken;
      const bot = token
        ? new Api(token, options.botApiRoot ? { apiRoot: options.botApiRoot } : undefined)
        : null;
      let prunedAt = 0;
      return schedulePeriodic(
        {
          name: 'offline alerts',
          intervalMs: options.intervalMs ?? 60_000,
          firstRunInMs: options.firstRunInMs ?? STATION_OFFLINE_AFTER_MS,
          async run() {
            const now = clock();
            const sent = await offlineAlertsRound(ctx, now, bot, log);
            if (sent.alerts + sent.backNotes > 0) log.info(sent, 'offline alerts sent');
            if (now - prunedAt >= PRUNE_EVERY_MS) {
              prunedAt = now;
              await pruneOfflineAlerts(
                ctx.database.db,
                now - (HEALTH_RAW_RETENTION_DAYS + 1) * DAY_MS,
                utcDay(now - 2 * DAY_MS),
              );
            }
          },
        },
        log,
      );
    },
  };
}

export const offlineAlertsPart = createOfflineAlertsPart();
