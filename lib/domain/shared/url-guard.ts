import ipaddr from 'ipaddr.js';

/**
 * Checks that a URL a client hands us (media to download, webhook to call) is HTTPS and points at the public
 * internet. The WHATWG URL parser first canonicalises every IPv4 spelling (decimal 2130706433, octal 0177.1,
 * hex 0x7f.0.0.1, short 127.1) to a dotted quad, so one address check covers all encodings; IPv4-mapped and
 * other IPv6 forms are reduced by ipaddr.js. Only the `unicast` range counts as public: private, loopback,
 * link-local, unique-local, carrier-grade NAT, multicast, reserved and the IPv6 transition ranges that embed an
 * IPv4 address (6to4, Teredo, NAT64) are all refused.
 */
export type Resolver = (hostname: string) => Promise<string[]>;

export type UrlCheck =
  | { ok: true; url: URL; addresses: string[] }
  | { ok: false; reason: 'invalid' | 'not_https' | 'credentials' | 'private_address' | 'unresolvable' };

const BLOCKED_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa'];

/** IPv6 global unicast: everything else (IPv4-compatible `::a.b.c.d`, NAT64, site-local…) is never public. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');

export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 becomes its IPv4 address
  if (parsed.kind() === 'ipv6' && !(parsed as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return false;
  return parsed.range() === 'unicast';
}

function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : null;
}

export function parseHttpsUrl(raw: string): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  if (url.protocol !== 'https:') return { ok: false, reason: 'not_https' };
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  return { ok: true, url, addresses: [] };
}

/**
 * Full check. `allowUnresolved`: a name that does not resolve now passes (a webhook host may not exist yet;
 * delivery checks again at connect time); for a download it fails.
 */
export async function checkPublicHttpsUrl(raw: string, resolve: Resolver, options: { allowUnresolved?: boolean } = {}): Promise<UrlCheck> {
  const parsed = parseHttpsUrl(raw);
  if (!parsed.ok) return parsed;
  const hostname = parsed.url.hostname.toLowerCase().replace(/\.$/, '');
  const literal = literalAddress(hostname);
  if (literal) {
    return isPublicAddress(literal) ? { ...parsed, addresses: [literal] } : { ok: false, reason: 'private_address' };
  }
  if (hostname === 'localhost' || !hostname.includes('.') || BLOCKED_SUFFIXES.some((s) => hostname.endsWith(s))) {
    return { ok: false, reason: 'private_address' };
  }
  let addresses: string[];
  try {
    addresses = await resolve(hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) return options.allowUnresolved ? parsed : { ok: false, reason: 'unresolvable' };
  if (!addresses.every(isPublicAddress)) return { ok: false, reason: 'private_address' };
  return { ...parsed, addresses };
}

export const URL_CHECK_MESSAGES: Record<Exclude<UrlCheck, { ok: true }>['reason'], string> = {
  invalid: 'must be a valid URL',
  not_https: 'must be an https URL',
  credentials: 'must not carry credentials',
  private_address: 'must not point at a private, loopback or link-local address',
  unresolvable: 'host does not resolve',
};
