import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

// A push subscription names the URL the server will POST to on every page: whoever registers one chooses where the
// server's requests go. Only public addresses are spoken to (the real push services are public), so a subscription
// cannot aim the server at its own network, the host itself or a cloud metadata service.

/**
 * Whether an address is public unicast: not private (10/8, 172.16/12, 192.168/16, fc00::/7), loopback, link-local
 * (169.254/16 with the cloud metadata address, fe80::/10), carrier-grade NAT, multicast, reserved or unspecified. An
 * IPv4 address written as IPv6 (::ffff:10.0.0.1) counts as the IPv4 one.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * Whether the operator allowed this host or address although it is not public (`PUSH_ALLOWED_HOSTS`: host names,
 * addresses or CIDR ranges, e.g. a push service inside the network, or a test's local stand-in).
 */
export function isAllowed(allowed: readonly string[], host: string, address?: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  for (const entry of allowed) {
    const e = entry.trim().toLowerCase();
    if (!e) continue;
    if (e === name || (address !== undefined && e === address.toLowerCase())) return true;
    if (e.includes('/') && ipaddr.isValidCIDR(e)) {
      const range = ipaddr.parseCIDR(e);
      for (const candidate of [name, address]) {
        if (!candidate || !ipaddr.isValid(candidate)) continue;
        const ip = ipaddr.process(candidate);
        if (ip.kind() === range[0].kind() && ip.match(range)) return true;
      }
    }
  }
  return false;
}

/** Why a host cannot be spoken to, or null: an address literal must be public (or allowed); a name is checked when resolved. */
export function refusedHost(allowed: readonly string[], host: string): string | null {
  const name = host.replace(/^\[|\]$/g, '');
  if (isAllowed(allowed, name)) return null;
  if (name.toLowerCase() === 'localhost' || name.toLowerCase().endsWith('.localhost')) return `${name} is not a public address`;
  if (net.isIP(name) && !isPublicAddress(name)) return `${name} is not a public address`;
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for sockets that resolves as usual and refuses (ENOTPUBLIC) when any address the name resolves to is not
 * public: checked at the moment of connecting, so a name that resolves publicly when checked and privately when used
 * (DNS rebinding) is refused too.
 */
export function publicOnlyLookup(allowed: readonly string[], resolve: typeof dns.lookup = dns.lookup) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '');
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !isPublicAddress(a.address) && !isAllowed(allowed, hostname, a.address));
      if (bad || list.length === 0) {
        const refusal = Object.assign(new Error(`${hostname} resolves to ${bad?.address ?? 'nothing'}, which is not a public address`), { code: 'ENOTPUBLIC' });
        return callback(refusal, options.all ? [] : '');
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}
