import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort, listensOn } from '../../local/parts/network.ts';

describe('which process listens on a port (a DynamoDB Local that lost its port to another is told apart)', () => {
  it('is this process for a port it listens on, and not for a port another holds', async () => {
    // Prepare: this process listens on one port; the other is free, then held by nobody here
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const own = (server.address() as { port: number }).port;
    const other = await freePort();
    try {
      // Act, Assess (where /proc is missing the answer is undefined: nothing to tell)
      const expected = listensOn(process.pid, own) === undefined ? undefined : true;
      expect(listensOn(process.pid, own)).toBe(expected);
      expect(listensOn(process.pid, other)).toBe(expected === undefined ? undefined : false);
    } finally {
      server.close();
    }
  });
});
