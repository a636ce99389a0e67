import { lookup } from 'node:dns/promises';
import type { Resolver } from '#lib/domain/shared/url-guard.ts';

/** Every address a host name resolves to, for the public-address check of caller-given URLs. */
export const resolveHost: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
