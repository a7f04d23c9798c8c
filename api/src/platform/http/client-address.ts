/**
 * Who the client is, for the rate limits.
 *
 * TRUST_PROXY is the number of reverse proxies in front of the server (0: none, the socket's
 * peer is the client). Each proxy appends the address it received the request from to
 * X-Forwarded-For, so behind N proxies the client is the N-th entry from the right: the entries
 * left of it were written by the client itself and are never used. Koa chooses `ctx.ip` that way
 * when the app is built with `proxy: N > 0, maxIpsCount: N` (koaProxyOptions).
 *
 * A person on IPv6 usually has a whole /64 of addresses, so IPv6 clients are counted by their
 * /64 prefix; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, how a dual-stack socket reports
 * an IPv4 peer) counts as the IPv4 address. Parsing is done by ipaddr.js (compressed forms,
 * zone ids, embedded IPv4).
 */
import ipaddr from 'ipaddr.js';

/** More hops than any real chain of proxies: a larger value is a typo. */
const MAX_HOPS = 20;

/**
 * Parses TRUST_PROXY: unset or empty = 0, else a whole number of proxies from 0 to 20. Anything
 * else (`true`, `yes`, `-1`, `1.5`) throws, so a malformed value stops the start.
 */
export function parseTrustProxy(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 0;
  const text = raw.trim();
  const hops = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(hops) || hops > MAX_HOPS) {
    throw new Error(
      `TRUST_PROXY must be the number of reverse proxies in front of the server ` +
        `(0 = none, 1 = one load balancer, 2 = a CDN in front of a load balancer, at most ` +
        `${MAX_HOPS}), got "${raw}"`,
    );
  }
  return hops;
}

/** Koa's options that make `ctx.ip` the client as seen by the outermost of `hops` proxies. */
export function koaProxyOptions(hops: number): { proxy: boolean; maxIpsCount: number } {
  return { proxy: hops > 0, maxIpsCount: hops };
}

/** Longest key kept for an address that is not an IP (a proxy may write `unknown`). */
const MAX_OTHER_LENGTH = 64;

/**
 * The rate-limit key of a client address: the IPv4 address in dotted form, the /64 prefix
 * for IPv6 (`2001:db8:1:2::/64`), the IPv4 address for an IPv4-mapped IPv6 one. A port some proxies append
 * (`192.0.2.1:5555`, `[2001:db8::1]:443`) is dropped.
 */
export function clientKey(address: string): string {
  let text = address.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d+$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));

  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text).toString();
  if (ipaddr.IPv6.isValid(text)) {
    const v6 = ipaddr.IPv6.parse(text);
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    return `${new ipaddr.IPv6([...v6.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
  }
  return text.slice(0, MAX_OTHER_LENGTH) || 'unknown';
}
