import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Where a webhook may be sent: whether private addresses and plain http are allowed. */
export interface TargetRules {
  /** `WEBHOOK_ALLOW_PRIVATE_TARGETS`: loopback, private, link-local and metadata addresses too. */
  allowPrivate: boolean;
  /** `NODE_ENV=production`: https only. */
  httpsOnly: boolean;
}

/** A destination refused: its reason is shown to the endpoint's owner. */
export class RefusedTarget extends Error {
  override name = 'RefusedTarget';
}

/** Address ranges no webhook may reach unless private targets are allowed. */
const BLOCKED: [string, number, 'ipv4' | 'ipv6', string][] = [
  ['0.0.0.0', 8, 'ipv4', 'an unspecified'],
  ['10.0.0.0', 8, 'ipv4', 'a private'],
  ['100.64.0.0', 10, 'ipv4', 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'ipv4', 'a loopback'],
  ['169.254.0.0', 16, 'ipv4', 'a link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'ipv4', 'a private'],
  ['192.0.0.0', 24, 'ipv4', 'a reserved'],
  ['192.168.0.0', 16, 'ipv4', 'a private'],
  ['198.18.0.0', 15, 'ipv4', 'a benchmarking'],
  ['224.0.0.0', 4, 'ipv4', 'a multicast'],
  ['240.0.0.0', 4, 'ipv4', 'a reserved'],
  ['::', 128, 'ipv6', 'an unspecified'],
  ['::1', 128, 'ipv6', 'a loopback'],
  ['64:ff9b::', 96, 'ipv6', 'a translated (NAT64)'],
  ['fc00::', 7, 'ipv6', 'a private (unique local, cloud metadata)'],
  ['fe80::', 10, 'ipv6', 'a link-local'],
  ['ff00::', 8, 'ipv6', 'a multicast'],
];

const lists = BLOCKED.map(([network, prefix, family, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, family, kind };
});

/**
 * What kind of address no webhook may reach this is (`a loopback`, `a link-local (cloud
 * metadata)`…), or undefined for a public address. An IPv4 address written as IPv6
 * (`::ffff:127.0.0.1`) is judged as the IPv4 address it is.
 */
export function blockedKind(address: string): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const family = isIP(plain) === 4 ? 'ipv4' : isIP(plain) === 6 ? 'ipv6' : undefined;
  if (!family) return 'an unreadable';
  return lists.find((entry) => entry.family === family && entry.list.check(plain, family))?.kind;
}

/** The host of a URL as a connection uses it: brackets of an IPv6 literal removed. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Check a destination's scheme and, for an address written in it, the address: https only in
 * production; no user name or password in it.
 * @throws {RefusedTarget}
 */
export function checkUrl(text: string, rules: TargetRules): URL {
  const url = new URL(text);
  if (url.protocol !== 'https:' && (rules.httpsOnly || url.protocol !== 'http:'))
    throw new RefusedTarget('url must be an https:// address');
  if (url.username || url.password) throw new RefusedTarget('url must not carry a user name or password');
  const host = hostOf(url);
  if (!rules.allowPrivate && isIP(host)) refuseBlocked(host, host);
  return url;
}

function refuseBlocked(host: string, address: string): void {
  const kind = blockedKind(address);
  if (kind)
    throw new RefusedTarget(
      host === address
        ? `${address} is ${kind} address: webhooks are sent to public addresses only`
        : `${host} resolves to ${address}, ${kind} address: webhooks are sent to public addresses only`,
    );
}

/** The resolver the guard asks; `node:dns`'s by default (a test gives its own). */
export type Resolve = (host: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/**
 * Resolve a host and refuse it when any of its addresses is one no webhook may reach.
 * @throws {RefusedTarget}
 */
export async function resolveAllowed(host: string, rules: TargetRules, resolve = systemResolve) {
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new RefusedTarget(`${host} has no address`);
  if (!rules.allowPrivate) for (const { address } of addresses) refuseBlocked(host, address);
  return addresses;
}

/**
 * The `lookup` of an outgoing connection: the address the socket connects to is the one checked
 * here, at connect time, so a name that resolved to a public address when it was saved and to a
 * private one now (DNS rebinding) is refused. (A URL with an IP address is checked by `checkUrl`:
 * Node connects to it without a lookup.)
 */
export function guardedLookup(rules: TargetRules, resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, rules, resolve).then(
      (addresses) => {
        const wanted = typeof options === 'object' && options.family ? options.family : 0;
        const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
        const first = usable[0] ?? addresses[0];
        if (!first) return callback(new RefusedTarget(`${hostname} has no address`), '', 4);
        if (typeof options === 'object' && options.all) {
          (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, usable);
          return;
        }
        callback(null, first.address, first.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}
