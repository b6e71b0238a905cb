// The key a client is counted under by every per-address limit (HTTP routes and the broker):
// an IPv4 address as is (also when mapped into IPv6), an IPv6 address by its /64 prefix, since
// one IPv6 subscriber usually holds a whole /64 and could otherwise count as 2^64 clients.
import { isIPv6 } from 'node:net';

function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right];
}

function unmapped(remote: string): string {
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote;
}

/** `203.0.113.7`, or `2001:db8:1:2::/64` for any address in that /64; 'unknown' without one. */
export function clientKey(remote: string | undefined): string {
  if (!remote) return 'unknown';
  const address = unmapped(remote);
  if (!isIPv6(address)) return address;
  if (address === '::1') return address;
  const groups = expandIPv6(address.split('%')[0] ?? address);
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** 127.0.0.0/8 and ::1, where the operator's own tools (simulator, benchmarks) connect from. */
export function isLoopback(remote: string | undefined): boolean {
  if (!remote) return false;
  const address = unmapped(remote);
  return address === '::1' || (!isIPv6(address) && address.startsWith('127.'));
}
