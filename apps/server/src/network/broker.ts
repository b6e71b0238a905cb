// The embedded MQTT 3.1.1 broker (aedes) the station firmware connects to: plain TCP on MQTT_PORT
// and, when a certificate is configured, TLS. Authentication is the user id and an MQTT password
// (the account's, or a station's own); authorisation follows broker-acl.ts and admission
// broker-admission.ts. The server publishes commands in-process (no user identity). Nothing a
// client sends is kept beyond its connection: sessions are always clean and retained flags are
// cleared, so no client can grow the broker's memory past its connection's life.
import { readFileSync } from 'node:fs';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { Aedes, type AuthErrorCode, type AuthenticateError, type Client } from 'aedes';
import type { Logger } from 'pino';
import { mayPublish, mayReceive, maySubscribe, type BrokerIdentity } from './broker-acl';
import { addressKey, ConnectionLedger, type ConnectionLimits } from './broker-admission';
import type { NetworkMetrics, RefusalReason } from './metrics';
import { guardPacketSize } from './packet-size-guard';

export interface BrokerOptions {
  /** null: 1883, or a free port when 1883 is taken; 0: any free port */
  port: number | null;
  host: string;
  tls: { port: number; cert: string; key: string } | null;
  maxPacketBytes: number;
  limits: ConnectionLimits;
  metrics: NetworkMetrics;
  log: Logger;
  /** whom this user id and password speak for, or null when they match no credential */
  authenticate(username: string, password: string): Promise<BrokerIdentity | null>;
  /** every authorised publish of a connected client (including its last will) */
  onMessage(topic: string, payload: Buffer, client: Client, who: BrokerIdentity): void;
  onClientGone(client: Client): void;
  onOversize(client: Client | null, announcedBytes: number): void;
}

export interface RunningBroker {
  aedes: Aedes;
  port: number;
  tlsPort: number | null;
  /** publishes as the server */
  publish(topic: string, payload: Buffer): Promise<void>;
  disconnect(client: Client): void;
  /** Closes the user's connections whose identity matches; how many were closed. */
  disconnectUser(userId: string, match: (who: BrokerIdentity) => boolean): number;
  close(): Promise<void>;
}

export const DEFAULT_MQTT_PORT = 1883;

/**
 * Broker tuning shared with the benchmark's raw broker. No delivery concurrency cap: with a cap,
 * aedes' emitter queues messages and drains the queue recursively, and a deep queue of messages
 * nobody subscribes to (every `tele/*`) overflows the stack. Each connection is still read only
 * as fast as its messages are handled.
 */
export const BROKER_TUNING = { concurrency: 0 } as const;

function authError(message: string, code: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code as AuthErrorCode });
}
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const IDENTIFIER_REJECTED = 2;
const MAX_CLIENT_ID_LENGTH = 64;

// Refusals are logged at warn level this many times per reason and minute, then at debug: a
// flood of refused connections must not become a flood of log lines.
const WARN_LOGS_PER_REASON_MINUTE = 10;

function listen(server: NetServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

function isAddressInUse(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'EADDRINUSE';
}

function pem(value: string): string | Buffer {
  return value.includes('-----BEGIN') ? value : readFileSync(value);
}

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const { log, metrics } = options;
  const ledger = new ConnectionLedger<Client>(options.limits);
  const identities = new WeakMap<Client, BrokerIdentity>();
  // The topic each connection last published to and was allowed: a station publishes on the same
  // few topics all the time, and its identity does not change while it is connected.
  const allowedTopic = new WeakMap<Client, string>();
  const addresses = new WeakMap<Client, string | null>();
  const subscriptions = new WeakMap<Client, Set<string>>();
  const warned = new Map<RefusalReason, { minute: number; count: number }>();

  const refuse = (reason: RefusalReason, fields: Record<string, unknown>, message: string) => {
    metrics.refuse(reason);
    const minute = Math.floor(Date.now() / 60_000);
    const w = warned.get(reason);
    const count = w && w.minute === minute ? w.count + 1 : 1;
    warned.set(reason, { minute, count });
    if (count <= WARN_LOGS_PER_REASON_MINUTE) log.warn({ ...fields, reason }, message);
    else log.debug({ ...fields, reason }, message);
  };

  const aedes = await Aedes.createBroker({
    ...BROKER_TUNING,
    // Station firmware identifies with its MAC (12 hex digits); allow some room, not kilobytes.
    // (aedes applies this to MQTT 3.1 only; preConnect applies it to 3.1.1.)
    maxClientsIdLength: MAX_CLIENT_ID_LENGTH,
    preConnect(client, packet, done) {
      if (packet.clientId.length > MAX_CLIENT_ID_LENGTH) {
        refuse(
          'client-id-too-long',
          { address: addresses.get(client) ?? null, length: packet.clientId.length },
          'MQTT connection refused: client id too long',
        );
        done(new Error('client id too long'), false);
        return;
      }
      // No session outlives its connection: nothing a client leaves behind stays in memory.
      packet.clean = true;
      done(null, true);
    },
    authenticate(client, username, password, done) {
      const address = addresses.get(client) ?? null;
      const denied = (reason: RefusalReason, code: number, message: string) => {
        refuse(reason, { clientId: client.id, userId: username?.slice(0, 24), address }, message);
        done(authError(message, code), false);
      };
      if (!ledger.mayTryLogin(address, username ?? '')) {
        denied(
          'bad-credentials',
          BAD_USERNAME_OR_PASSWORD,
          'MQTT login refused: too many failures',
        );
        return;
      }
      if (!username || !/^\d{1,20}$/.test(username) || !password) {
        ledger.loginFailed(address, username ?? '');
        denied('bad-credentials', BAD_USERNAME_OR_PASSWORD, 'MQTT login refused: bad credentials');
        return;
      }
      options.authenticate(username, password.toString('utf8')).then(
        (who) => {
          if (!who) {
            ledger.loginFailed(address, username ?? '');
            denied(
              'bad-credentials',
              BAD_USERNAME_OR_PASSWORD,
              'MQTT login refused: bad credentials',
            );
            return;
          }
          // Gone while its credentials were looked up: nothing to register.
          if (client.closed || client.conn.destroyed) {
            done(authError('connection closed', SERVER_UNAVAILABLE), false);
            return;
          }
          const refusal = ledger.admit(client, who);
          if (refusal === 'client-id-taken') {
            denied(
              refusal,
              IDENTIFIER_REJECTED,
              'MQTT login refused: client id held by another user',
            );
            return;
          }
          if (refusal) {
            denied(refusal, SERVER_UNAVAILABLE, 'MQTT login refused: connection limit reached');
            return;
          }
          identities.set(client, who);
          done(null, true);
        },
        (err: unknown) => {
          log.error({ err }, 'MQTT authentication failed on storage');
          done(authError('Server unavailable', SERVER_UNAVAILABLE), false);
        },
      );
    },
    authorizePublish(client, packet, done) {
      const who = client ? identities.get(client) : undefined;
      const lastAllowed = client ? allowedTopic.get(client) : undefined;
      if (
        !client ||
        who === undefined ||
        (lastAllowed !== packet.topic && !mayPublish(who, packet.topic))
      ) {
        // aedes closes the connection after this refusal.
        refuse(
          'publish-not-allowed',
          { clientId: client?.id, userId: who?.userId, topic: packet.topic.slice(0, 200) },
          'MQTT publish refused: topic not allowed; connection closed',
        );
        done(new Error(`publish to ${packet.topic} not allowed`));
        return;
      }
      const size =
        Buffer.byteLength(packet.topic) +
        (typeof packet.payload === 'string'
          ? Buffer.byteLength(packet.payload)
          : packet.payload.length);
      if (size > options.maxPacketBytes) {
        // Usually the connection guard saw the header first and has closed the connection already.
        if (!client.conn.destroyed) options.onOversize(client, size);
        done(new Error('packet too large'));
        return;
      }
      if (packet.retain) {
        // Delivered like any message, never stored: retained messages would live in memory forever.
        packet.retain = false;
        metrics.refuse('retain-flag-cleared');
      }
      if (lastAllowed !== packet.topic) allowedTopic.set(client, packet.topic);
      done(null);
    },
    authorizeSubscribe(client, sub, done) {
      const who = identities.get(client);
      if (who === undefined || !maySubscribe(who, sub.topic)) {
        // A null subscription is refused in the SUBACK (0x80); the connection stays up.
        refuse(
          'subscribe-not-allowed',
          { clientId: client.id, userId: who?.userId, topic: sub.topic.slice(0, 200) },
          'MQTT subscription refused: filter not allowed',
        );
        done(null, null);
        return;
      }
      let held = subscriptions.get(client);
      if (!held) {
        held = new Set();
        subscriptions.set(client, held);
      }
      if (!held.has(sub.topic) && held.size >= options.limits.subscriptionsPerConnection) {
        refuse(
          'subscriptions-per-connection',
          { clientId: client.id, userId: who.userId },
          'MQTT subscription refused: too many on one connection',
        );
        done(null, null);
        return;
      }
      held.add(sub.topic);
      done(null, sub);
    },
    authorizeForward(client, packet) {
      const who = identities.get(client);
      return who && mayReceive(who, packet.topic) ? packet : null;
    },
  });

  aedes.on('publish', (packet, client) => {
    const who = client ? identities.get(client) : undefined;
    if (!client || !who) return;
    try {
      options.onMessage(
        packet.topic,
        Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload),
        client,
        who,
      );
    } catch (err) {
      // Nothing a station sends may take the broker down.
      log.error({ err, topic: packet.topic }, 'station message handler failed');
    }
  });
  aedes.on('unsubscribe', (topics, client) => {
    const held = subscriptions.get(client);
    for (const t of topics) held?.delete(t);
  });
  aedes.on('clientDisconnect', (client) => options.onClientGone(client));
  aedes.on('clientError', (client, err) =>
    log.debug({ err: err.message, clientId: client.id }, 'MQTT client error'),
  );
  aedes.on('connectionError', (_client, err) =>
    log.debug({ err: err.message }, 'MQTT connection error'),
  );

  const sockets = new Set<Socket>();
  const handle = (socket: Socket) => {
    socket.on('error', () => undefined);
    const address = addressKey(socket.remoteAddress);
    const refusal = ledger.openSocket(address);
    if (refusal) {
      refuse(refusal, { address }, 'MQTT connection refused: connection limit reached');
      socket.destroy();
      return;
    }
    sockets.add(socket);
    const client = aedes.handle(socket);
    addresses.set(client, address);
    socket.once('close', () => {
      sockets.delete(socket);
      ledger.closeSocket(address, client);
    });
    guardPacketSize(socket, options.maxPacketBytes, (announced) => {
      options.onOversize(client, announced);
      socket.destroy();
    });
  };

  const tcp = createNetServer(handle);
  let port: number;
  if (options.port === null) {
    try {
      port = await listen(tcp, DEFAULT_MQTT_PORT, options.host);
    } catch (err) {
      if (!isAddressInUse(err)) throw err;
      port = await listen(tcp, 0, options.host);
      log.warn(
        `MQTT port ${DEFAULT_MQTT_PORT} is in use; the broker listens on ${port} instead (set MQTT_PORT to choose)`,
      );
    }
  } else {
    try {
      port = await listen(tcp, options.port, options.host);
    } catch (err) {
      aedes.close();
      if (isAddressInUse(err))
        throw new Error(
          `MQTT_PORT ${options.port} is already in use: stop the other broker or choose another port`,
        );
      throw err;
    }
  }

  let tlsServer: NetServer | null = null;
  let tlsPort: number | null = null;
  if (options.tls) {
    tlsServer = createTlsServer(
      { cert: pem(options.tls.cert), key: pem(options.tls.key) },
      handle as (s: Socket) => void,
    );
    try {
      tlsPort = await listen(tlsServer, options.tls.port, options.host);
    } catch (err) {
      tcp.close();
      aedes.close();
      if (isAddressInUse(err))
        throw new Error(`MQTT_TLS_PORT ${options.tls.port} is already in use`);
      throw err;
    }
  }
  log.info(
    { port, tlsPort },
    `MQTT broker listening on ${options.host}:${port}${tlsPort ? ` (TLS ${tlsPort})` : ''}`,
  );

  return {
    aedes,
    port,
    tlsPort,
    publish(topic, payload) {
      return new Promise((resolve, reject) => {
        aedes.publish(
          { cmd: 'publish', topic, payload, qos: 1, retain: false, dup: false },
          (err) => (err ? reject(err) : resolve()),
        );
      });
    },
    disconnect(client) {
      client.close();
    },
    disconnectUser(userId, match) {
      let n = 0;
      for (const client of ledger.connectionsOf(userId)) {
        const who = identities.get(client);
        if (!who || !match(who)) continue;
        client.close();
        n += 1;
      }
      return n;
    },
    async close() {
      const closed = (server: NetServer) =>
        new Promise<void>((resolve) => server.close(() => resolve()));
      const waits = [closed(tcp), ...(tlsServer ? [closed(tlsServer)] : [])];
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await Promise.all(waits);
    },
  };
}
