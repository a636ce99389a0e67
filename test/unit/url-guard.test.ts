import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPublicHttpsUrl, isPublicAddress } from '#lib/domain/shared/url-guard.ts';

const noDns = async () => [] as string[];

describe('url guard', () => {
  it('refuses every spelling of a loopback IPv4 address (property)', async () => {
    // Prepare: any 127.x.y.z written as dotted decimal, one decimal number, hex or octal
    const spellings = fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
      .chain(([b, c, d]) => {
        const n = ((127 << 24) >>> 0) + (b << 16) + (c << 8) + d;
        return fc.constantFrom(
          `127.${b}.${c}.${d}`,
          String(n),
          `0x${n.toString(16)}`,
          `0${(127).toString(8)}.${b}.${c}.${d}`,
          `0x7f.${b}.${c}.${d}`,
        );
      });
    await fc.assert(
      fc.asyncProperty(spellings, async (host) => {
        const check = await checkPublicHttpsUrl(`https://${host}/x`, noDns);
        expect(check).toEqual({ ok: false, reason: 'private_address' });
      }),
      { numRuns: 200 },
    );
  });

  it('refuses private ranges in their IPv4-mapped IPv6 form (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), async (c, d) => {
        const check = await checkPublicHttpsUrl(`https://[::ffff:10.0.${c}.${d}]/`, noDns);
        expect(check.ok).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a name that resolves to a private address, and one address among public ones is enough', async () => {
    const check = await checkPublicHttpsUrl('https://rebind.example.com/', async () => ['93.184.216.34', '10.0.0.8']);
    expect(check).toEqual({ ok: false, reason: 'private_address' });
  });

  it('accepts a name that resolves to public addresses only', async () => {
    const check = await checkPublicHttpsUrl('https://cdn.example.com/a.png', async () => [
      '93.184.216.34',
      '2606:2800:220:1:248:1893:25c8:1946',
    ]);
    expect(check.ok).toBe(true);
  });

  it('treats an unresolvable name as refused unless asked to allow it', async () => {
    expect(await checkPublicHttpsUrl('https://nowhere.example.com/', noDns)).toEqual({ ok: false, reason: 'unresolvable' });
    expect((await checkPublicHttpsUrl('https://nowhere.example.com/', noDns, { allowUnresolved: true })).ok).toBe(true);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111'])('counts %s as public', (a) => expect(isPublicAddress(a)).toBe(true));
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '169.254.1.1',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:192.168.0.1',
    '224.0.0.1',
    '255.255.255.255',
    'nonsense',
    // IPv4-compatible IPv6 (a reproduced bypass), NAT64, 6to4 and Teredo embed an IPv4 address.
    '::7f00:1',
    '::127.0.0.1',
    '::169.254.169.254',
    '::10.0.0.1',
    '64:ff9b::7f00:1',
    '2002:7f00:1::',
    '2001:0:7f00:1::',
    '5f00::1',
  ])('counts %s as not public', (a) => expect(isPublicAddress(a)).toBe(false));

  it.each(['https://[::127.0.0.1]/', 'https://[::7f00:1]/a.png', 'https://[::169.254.169.254]/latest', 'https://[::10.0.0.1]/'])(
    'refuses the IPv4-compatible IPv6 URL %s',
    async (url) => expect(await checkPublicHttpsUrl(url, async () => [])).toEqual({ ok: false, reason: 'private_address' }),
  );
});

describe('the connected address', () => {
  it('is checked for IP-literal hosts too, which skip the DNS lookup: a loopback receiver is never reached', async () => {
    // Prepare: a plain TCP listener on loopback that records whether anything arrives
    const { createServer } = await import('node:net');
    const { guardedHttpsPost } = await import('#lib/adapters/https/webhook-transport.ts');
    let received = 0;
    const server = createServer((socket) => {
      socket.on('data', (chunk) => {
        received += chunk.length;
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      // Act
      const outcome = await guardedHttpsPost(new URL(`https://127.0.0.1:${port}/hook`), {}, '{"secret":true}').catch((e: Error) => e);
      // Assess
      expect(outcome).toBeInstanceOf(Error);
      expect((outcome as Error).message).toBe('address not allowed');
      expect(received).toBe(0);
    } finally {
      server.close();
    }
  });
});
