import { lookup as dnsLookup } from 'node:dns';
import type { ClientRequest } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isPublicAddress } from '#lib/domain/shared/url-guard.ts';

export class BlockedAddressError extends Error {
  constructor() {
    super('address not allowed');
  }
}

/**
 * Checks the address a request's socket actually connected to. Node skips the lookup for IP-literal hosts,
 * so this is what guards them; for names it checks again what guardedLookup allowed.
 */
export function guardConnectedAddress(request: ClientRequest) {
  request.on('socket', (socket) => {
    socket.once('connect', () => {
      if (!isPublicAddress(socket.remoteAddress ?? '')) request.destroy(new BlockedAddressError());
    });
  });
  return request;
}

/**
 * A DNS lookup for outgoing HTTPS sockets that refuses private, loopback and link-local answers. Used as
 * the socket's own lookup, the check happens at connect time, so a name that resolved to a public address
 * when the URL was checked cannot be re-pointed inside afterwards (DNS rebinding).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as unknown as { address: string; family: number }[];
    if (list.length === 0 || list.some((a) => !isPublicAddress(a.address))) {
      return callback(new BlockedAddressError() as NodeJS.ErrnoException, '', 4);
    }
    if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: typeof list) => void)(null, list);
    callback(null, list[0].address, list[0].family);
  });
};
