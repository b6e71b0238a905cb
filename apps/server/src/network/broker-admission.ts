// Who may hold a broker connection: caps on open sockets per address and overall, on
// authenticated connections per user, a client id held by one user that no other user can take
// over, and budgets of failed logins (per address and user id, and per address) that stop password
// guessing (and the storage reads each guess costs) early. Pure bookkeeping: the broker asks and acts on the answers.
import type { BrokerIdentity } from './broker-acl';
import type { RefusalReason } from './metrics';
import { clientKey, isLoopback } from '../lib/address-key';
import { TokenBucket, type BucketSize } from '../lib/token-bucket';

export interface ConnectionLimits {
  /** authenticated connections of one user at once */
  perUser: number;
  /** open sockets from one address (IPv6: one /64); loopback is not counted */
  perAddress: number;
  /** open sockets overall */
  total: number;
  /** distinct subscriptions one connection may hold (the firmware uses two) */
  subscriptionsPerConnection: number;
}

/**
 * Failed logins for one user id from one address: a burst of 20, then one every 6 s. Keyed by
 * both so that a guesser sharing an address (carrier NAT) with real stations locks out only the
 * user id it guesses for; a station retrying a changed password (every 30 s or slower) stays
 * below it.
 */
export const FAILED_LOGINS: BucketSize = { capacity: 20, perSecond: 1 / 6 };
/** Failed logins from one address whatever the user id: bounds the storage lookups of a guesser. */
export const FAILED_LOGINS_PER_ADDRESS: BucketSize = { capacity: 200, perSecond: 2 };
// Keys whose failures are remembered; full buckets are forgotten first when it is reached.
const MAX_TRACKED_FAILURES = 50_000;

/** A connection as far as the ledger cares: aedes' client object. */
export interface Holder {
  readonly id: string;
  readonly closed: boolean;
}

/**
 * The key broker connections are counted under (see lib/address-key), or null for loopback, where
 * the operator's own tools (simulator, benchmarks) connect from.
 */
export function addressKey(remote: string | undefined): string | null {
  return isLoopback(remote) ? null : clientKey(remote);
}

export class ConnectionLedger<H extends Holder = Holder> {
  private sockets = 0;
  private readonly byAddress = new Map<string, number>();
  private readonly byUser = new Map<string, Set<H>>();
  private readonly userOf = new WeakMap<H, string>();
  private readonly holders = new Map<string, { userId: string; holder: H }>();
  private readonly failures = new Map<string, TokenBucket>();

  constructor(
    private readonly limits: ConnectionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /** A TCP or TLS socket was accepted; a refusal means it is closed at once. */
  openSocket(address: string | null): RefusalReason | null {
    if (this.sockets >= this.limits.total) return 'connections-total';
    if (address !== null && (this.byAddress.get(address) ?? 0) >= this.limits.perAddress)
      return 'connections-per-address';
    this.sockets += 1;
    if (address !== null) this.byAddress.set(address, (this.byAddress.get(address) ?? 0) + 1);
    return null;
  }

  /** The socket of a connection admitted by `openSocket` closed. */
  closeSocket(address: string | null, holder: H): void {
    this.sockets -= 1;
    if (address !== null) {
      const n = (this.byAddress.get(address) ?? 1) - 1;
      if (n > 0) this.byAddress.set(address, n);
      else this.byAddress.delete(address);
    }
    const userId = this.userOf.get(holder);
    const set = userId === undefined ? undefined : this.byUser.get(userId);
    if (userId !== undefined && set) {
      set.delete(holder);
      if (set.size === 0) this.byUser.delete(userId);
    }
    if (this.holders.get(holder.id)?.holder === holder) this.holders.delete(holder.id);
  }

  /** False when this address (for this user id) has used up its failed logins: refuse unseen. */
  mayTryLogin(address: string | null, username: string): boolean {
    if (address === null) return true;
    const now = this.now();
    return [`${address} ${username}`, address].every(
      (key) => this.failures.get(key)?.hasToken(now) ?? true,
    );
  }

  loginFailed(address: string | null, username: string): void {
    if (address === null) return;
    this.takeFailure(`${address} ${username}`, FAILED_LOGINS);
    this.takeFailure(address, FAILED_LOGINS_PER_ADDRESS);
  }

  private takeFailure(key: string, size: BucketSize): void {
    let bucket = this.failures.get(key);
    if (!bucket) {
      if (this.failures.size >= MAX_TRACKED_FAILURES) this.forgetRefilled();
      bucket = new TokenBucket(size, this.now());
      this.failures.set(key, bucket);
    }
    bucket.take(this.now());
  }

  /**
   * An authenticated connection asks to be registered. Another user's live connection with the
   * same client id keeps it; the same user's replaces it (MQTT session takeover) and so does not
   * count twice against the user's cap.
   */
  admit(holder: H, who: BrokerIdentity): RefusalReason | null {
    const current = this.holders.get(holder.id);
    const live = current && current.holder !== holder && !current.holder.closed ? current : null;
    if (live && live.userId !== who.userId) return 'client-id-taken';
    const mine = this.byUser.get(who.userId) ?? new Set<H>();
    const replacing = live && mine.has(live.holder) ? 1 : 0;
    if (mine.size - replacing >= this.limits.perUser) return 'connections-per-user';
    mine.add(holder);
    this.userOf.set(holder, who.userId);
    this.byUser.set(who.userId, mine);
    this.holders.set(holder.id, { userId: who.userId, holder });
    return null;
  }

  /** The live connections of one user. */
  connectionsOf(userId: string): H[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  private forgetRefilled(): void {
    const now = this.now();
    for (const [key, bucket] of this.failures) if (bucket.isFull(now)) this.failures.delete(key);
    // Still full of active guessers: forget the oldest half rather than grow.
    if (this.failures.size >= MAX_TRACKED_FAILURES) {
      let n = Math.floor(this.failures.size / 2);
      for (const key of this.failures.keys()) {
        if (n-- <= 0) break;
        this.failures.delete(key);
      }
    }
  }
}
