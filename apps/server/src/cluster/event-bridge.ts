// The event bus across instances (REDIS_URL): what an instance publishes on its own bus
// (`new-packet` after its batch committed, `stations-changed`, `stations-seen`) also goes to one
// Redis channel, and what the other instances published there comes out of this instance's bus. So every
// instance's live-stream clients see every packet once (their own instance's from its bus, the
// others' from the channel; an instance skips its own messages), and every instance's answer
// caches are dropped by a change made anywhere.
//
// The events of one tick (one batch announces all its packets at once) travel as one message.
// While Redis is unreachable the events stay on their own instance; caches still refresh on
// their TTL.
import { randomBytes } from 'node:crypto';
import { NewPacketEventSchema } from '@tinygs/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BusEvents, EventBus } from '../events';
import type { RedisConnection } from './redis-connection';

const BRIDGED = ['new-packet', 'stations-changed', 'stations-seen'] as const;
type Bridged = (typeof BRIDGED)[number];

const MessageSchema = z.object({
  origin: z.string().max(64),
  events: z
    .array(
      z.union([
        z.object({ name: z.literal('new-packet'), data: NewPacketEventSchema }),
        z.object({
          name: z.enum(['stations-changed', 'stations-seen']),
          data: z.object({ stationIds: z.array(z.string().max(200)).max(1_000_000) }),
        }),
      ]),
    )
    .max(1_000_000),
});

/** Events waiting for the next message; beyond this many (Redis slow) the oldest are dropped. */
const MAX_OUTBOX = 100_000;
const WARN_EVERY_MS = 60_000;

export interface EventBridge {
  /** events this instance could not hand to Redis */
  readonly lost: number;
  close(): Promise<void>;
}

export async function bridgeEvents(
  bus: EventBus,
  shared: RedisConnection,
  log: Logger,
): Promise<EventBridge> {
  const channel = `${shared.prefix}events`;
  // Per process, not INSTANCE_ID: two instances misconfigured with one id still hear each other.
  const origin = randomBytes(8).toString('hex');
  const fromOthers = new WeakSet<object>();
  let outbox: { name: Bridged; data: BusEvents[Bridged] }[] = [];
  let scheduled = false;
  let lost = 0;
  let warnedAt = -Infinity;
  const warn = (err: unknown, what: string) => {
    const now = Date.now();
    if (now - warnedAt < WARN_EVERY_MS) return;
    warnedAt = now;
    log.warn({ err, lost }, what);
  };

  const send = () => {
    scheduled = false;
    const events = outbox;
    outbox = [];
    shared.redis.publish(channel, JSON.stringify({ origin, events })).catch((err: unknown) => {
      lost += events.length;
      warn(err, 'live events not shared (Redis unavailable): other instances miss them');
    });
  };
  const unsubscribe = BRIDGED.map((name) =>
    bus.subscribe(name, (data: BusEvents[Bridged]) => {
      if (fromOthers.has(data)) return;
      if (outbox.length >= MAX_OUTBOX) {
        outbox.shift();
        lost += 1;
      }
      outbox.push({ name, data });
      if (!scheduled) {
        scheduled = true;
        setImmediate(send);
      }
    }),
  );

  const sub = await shared.subscriber();
  sub.on('message', (_channel: string, text: string) => {
    let message;
    try {
      message = MessageSchema.parse(JSON.parse(text));
    } catch (err) {
      warn(err, 'unreadable message on the live event channel ignored');
      return;
    }
    if (message.origin === origin) return;
    for (const event of message.events) {
      fromOthers.add(event.data);
      if (event.name === 'new-packet') bus.publish('new-packet', event.data);
      else bus.publish(event.name, event.data);
    }
  });
  await sub.subscribe(channel);

  return {
    get lost() {
      return lost;
    },
    async close() {
      for (const off of unsubscribe) off();
      if (scheduled) send();
      await sub.unsubscribe(channel).catch(() => undefined);
    },
  };
}
