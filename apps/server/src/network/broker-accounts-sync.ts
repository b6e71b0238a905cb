// Keeping an external broker's accounts in step with the users table: the connection the server
// manages them over, the reconciliation at start-up (and now and then), and the one-account
// update used when an account is created outside a running server (the CLI).
import type { Logger } from 'pino';
import type { ExternalBrokerConfig } from '../config';
import type { AppContext } from '../context';
import { decryptSecret } from '../lib/crypto';
import { listUserMqttSecrets } from '../repositories/users';
import { BrokerAccounts, serverBrokerPassword, type ReconcileOutcome } from './broker-accounts';
import { DynamicSecurity } from './dynsec';

export async function connectBrokerAccounts(
  ctx: AppContext,
  broker: ExternalBrokerConfig,
  log: Logger,
): Promise<{ dynsec: DynamicSecurity; accounts: BrokerAccounts; serverPassword: string }> {
  const dynsec = await DynamicSecurity.connect(
    { url: broker.url, username: broker.adminUsername, password: broker.adminPassword },
    log,
  );
  return {
    dynsec,
    accounts: new BrokerAccounts(dynsec, ctx.config.serverSecret, log),
    serverPassword: serverBrokerPassword(ctx.config.serverSecret),
  };
}

/** The users table as the source of truth for the plugin's clients and roles. */
export async function reconcileBrokerAccounts(
  ctx: AppContext,
  accounts: BrokerAccounts,
): Promise<ReconcileOutcome> {
  const passwords = new Map<string, string>();
  for (const u of await listUserMqttSecrets(ctx.database.db)) {
    try {
      passwords.set(u.id, decryptSecret(u.mqttPasswordEnc, ctx.config.serverSecret));
    } catch (err) {
      // Left without a broker account (and so removed from the broker) rather than stop start-up.
      ctx.log.warn({ err, userId: u.id }, 'MQTT password of user cannot be decrypted');
    }
  }
  return accounts.reconcile(passwords);
}

/**
 * Gives a new account its broker client: through the running network part, or (the CLI) over a
 * connection of its own. Without an external broker there is nothing to do.
 */
export async function syncBrokerAccount(
  ctx: AppContext,
  userId: string,
  password: string,
): Promise<void> {
  const broker = ctx.config.mqtt.external;
  if (!broker) return;
  const running = ctx.services.network?.brokerAccounts;
  if (running) {
    await running.ensureUser(userId, password);
    return;
  }
  const { dynsec, accounts } = await connectBrokerAccounts(ctx, broker, ctx.log);
  try {
    await accounts.ensureUser(userId, password);
  } finally {
    await dynsec.close();
  }
}
