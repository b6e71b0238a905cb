// Broker admission bookkeeping that loopback tests cannot reach over the wire: sockets are counted
// per IPv4 address and per IPv6 /64, loopback (the operator's own simulator and benchmarks) is not
// counted per address, and an address that keeps failing to log in is refused before any lookup.
import { describe, expect, it } from 'vitest';
import {
  addressKey,
  ConnectionLedger,
  FAILED_LOGINS,
  FAILED_LOGINS_PER_ADDRESS,
} from '../src/network/broker-admission';

const LIMITS = { perUser: 10, perAddress: 2, total: 100, subscriptionsPerConnection: 4 };
const holder = (id: string) => ({ id, closed: false });

describe('broker admission', () => {
  it('counts IPv4 (also mapped into IPv6) per address and IPv6 per /64; loopback not at all', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:db8:1:2::ffff'));
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'));
    expect(addressKey('127.0.0.1')).toBeNull();
    expect(addressKey('::1')).toBeNull();
  });

  it('refuses a third socket from one address and one /64, and frees the place on close', () => {
    const ledger = new ConnectionLedger(LIMITS);
    const a = addressKey('2001:db8:1:2::10');
    const first = holder('a');
    expect(ledger.openSocket(a)).toBeNull();
    expect(ledger.openSocket(addressKey('2001:db8:1:2::11'))).toBeNull();
    expect(ledger.openSocket(addressKey('2001:db8:1:2:ffff::12'))).toBe('connections-per-address');
    expect(ledger.openSocket(addressKey('198.51.100.1'))).toBeNull();
    ledger.closeSocket(a, first);
    expect(ledger.openSocket(a)).toBeNull();
    for (let i = 0; i < 10; i += 1) expect(ledger.openSocket(null)).toBeNull();
  });

  it('refuses logins for a user id from an address past its failures, not other users or addresses', () => {
    let now = 0;
    const ledger = new ConnectionLedger(LIMITS, () => now);
    const nat = '198.51.100.9';
    for (let i = 0; i < FAILED_LOGINS.capacity; i += 1) {
      expect(ledger.mayTryLogin(nat, '1001')).toBe(true);
      ledger.loginFailed(nat, '1001');
    }
    expect(ledger.mayTryLogin(nat, '1001')).toBe(false);
    // A station of another user behind the same address, and the same user elsewhere, still try.
    expect(ledger.mayTryLogin(nat, '1002')).toBe(true);
    expect(ledger.mayTryLogin('198.51.100.10', '1001')).toBe(true);
    now += 1000 / FAILED_LOGINS.perSecond;
    expect(ledger.mayTryLogin(nat, '1001')).toBe(true);
  });

  it('refuses an address guessing across many user ids', () => {
    const ledger = new ConnectionLedger(LIMITS, () => 0);
    for (let i = 0; i < FAILED_LOGINS_PER_ADDRESS.capacity; i += 1)
      ledger.loginFailed('203.0.113.50', String(5000 + i));
    expect(ledger.mayTryLogin('203.0.113.50', '999999')).toBe(false);
    expect(ledger.mayTryLogin('203.0.113.51', '999999')).toBe(true);
  });
});
