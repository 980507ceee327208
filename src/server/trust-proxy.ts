import { BlockList, isIP } from 'node:net';
import type { Config } from './config.ts';

/**
 * Addresses a load balancer in front of the server has on the network it shares with it:
 * loopback, private (RFC 1918, IPv6 unique local) and link-local.
 */
const privateNetworks = new BlockList();
privateNetworks.addSubnet('127.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('10.0.0.0', 8, 'ipv4');
privateNetworks.addSubnet('172.16.0.0', 12, 'ipv4');
privateNetworks.addSubnet('192.168.0.0', 16, 'ipv4');
privateNetworks.addSubnet('169.254.0.0', 16, 'ipv4');
privateNetworks.addAddress('::1', 'ipv6');
privateNetworks.addSubnet('fc00::', 7, 'ipv6');
privateNetworks.addSubnet('fe80::', 10, 'ipv6');

export function isPrivateAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const plain = mapped ?? address;
  const version = isIP(plain);
  if (version === 0) return false;
  return privateNetworks.check(plain, version === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Fastify's `trustProxy` for `TRUST_PROXY`:
 * - a list of addresses and ranges: the hops those proxies appended are believed (Fastify's own);
 * - a number of proxies `n`: the last `n` hops are believed, provided the connection comes from a
 *   private or loopback address. A bare hop count would let a client that reaches the server
 *   directly write the hops itself (which is why Fastify no longer takes a number); a load balancer
 *   sits on the private network, a client from the internet does not.
 */
export function trustProxyOption(
  trust: Config['trustProxy'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  if (trust === 0) return false;
  return (address, hop) => (hop === 0 ? isPrivateAddress(address) : hop < trust);
}
