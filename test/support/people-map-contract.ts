import { describe, expect, it } from 'vitest';
import type { PeopleMap } from '#lib/domain/people/ports.ts';

/**
 * The people map's contract (decisions §28), run on the in-memory store (test/unit/) and the DynamoDB adapter
 * (test/http/). Each test has a scope of its own.
 */
const scopeOf = () => `contract-${Math.floor(Math.random() * 1_000_000_000)}`;
const at = (minute: number) => `2026-11-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

export function peopleMapContract(name: string, makeStore: () => PeopleMap | Promise<PeopleMap>) {
  describe(`${name}: the people map contract`, () => {
    it('learns a pair once, finds it by either half, and writes nothing for a pair it knows', async () => {
      // Prepare
      const map = await makeStore();
      const scope = scopeOf();
      // Act
      const first = await map.learn(scope, [{ phone: '5215512345678', user_id: 'MX.1001', at: at(1) }]);
      const again = await map.learn(scope, [{ phone: '5215512345678', user_id: 'MX.1001', at: at(2) }]);
      const named = await map.learn(scope, [{ phone: '5215512345678', user_id: 'MX.1001', username: 'ana', at: at(3) }]);
      const pairs = await map.pairsOf(scope, [{ phone: '5215512345678' }, { user_id: 'MX.1001' }, { user_id: 'MX.9999' }]);
      // Assess: both halves written once; the username is news
      expect([first, again]).toEqual([2, 0]);
      expect(named).toBe(2);
      expect(pairs.get('p:5215512345678')).toEqual({ phone: '5215512345678', user_id: 'MX.1001', username: 'ana' });
      expect(pairs.get('u:MX.1001')).toEqual({ phone: '5215512345678', user_id: 'MX.1001', username: 'ana' });
      expect(pairs.has('u:MX.9999')).toBe(false);
      expect((await map.pairsOf(`${scope}-other`, [{ phone: '5215512345678' }])).size).toBe(0);
    });

    it('reads and learns many pairs at once (past a hundred keys), and ignores news older than what it holds', async () => {
      // Prepare
      const map = await makeStore();
      const scope = scopeOf();
      const pairs = Array.from({ length: 120 }, (_, i) => ({ phone: `52155${String(i).padStart(8, '0')}`, user_id: `MX.${i}`, at: at(5) }));
      // Act
      const written = await map.learn(scope, pairs);
      const stale = await map.learn(scope, [{ phone: pairs[0].phone, user_id: 'MX.OLD', at: at(1) }]);
      const found = await map.pairsOf(
        scope,
        pairs.map((p) => ({ phone: p.phone })),
      );
      // Assess: the old news wrote only the half that had never been seen (its BSUID)
      expect(written).toBe(240);
      expect(stale).toBe(1);
      expect(found.size).toBe(120);
      expect(found.get(`p:${pairs[119].phone}`)?.user_id).toBe('MX.119');
      expect(found.get(`p:${pairs[0].phone}`)?.user_id).toBe('MX.0');
    });

    it('moves a person to a new BSUID and to a new number: every half names the new pair', async () => {
      // Prepare
      const map = await makeStore();
      const scope = scopeOf();
      await map.learn(scope, [{ phone: '5215500000001', user_id: 'MX.A1', username: 'luis', at: at(1) }]);
      // Act
      await map.move(scope, { user_id: 'MX.A1' }, { user_id: 'MX.A2' }, at(2));
      const afterId = await map.pairsOf(scope, [{ user_id: 'MX.A2' }, { phone: '5215500000001' }, { user_id: 'MX.A1' }]);
      await map.move(scope, { phone: '5215500000001', user_id: 'MX.A2' }, { phone: '5215500000002', user_id: 'MX.A3' }, at(3));
      const afterNumber = await map.pairsOf(scope, [{ phone: '5215500000002' }, { user_id: 'MX.A3' }, { phone: '5215500000001' }]);
      // Assess
      expect(afterId.get('u:MX.A2')).toEqual({ phone: '5215500000001', user_id: 'MX.A2', username: 'luis' });
      expect(afterId.get('p:5215500000001')?.user_id).toBe('MX.A2');
      expect(afterId.get('u:MX.A1')?.user_id).toBe('MX.A2');
      expect(afterNumber.get('u:MX.A3')?.phone).toBe('5215500000002');
      expect(afterNumber.get('p:5215500000002')?.user_id).toBe('MX.A3');
      expect(afterNumber.get('p:5215500000001')?.phone).toBe('5215500000002');
    });

    it('a move of a person it does not know, with no other half, writes nothing', async () => {
      // Prepare
      const map = await makeStore();
      const scope = scopeOf();
      // Act
      await map.move(scope, { user_id: 'MX.N1' }, { user_id: 'MX.N2' }, at(1));
      // Assess
      expect((await map.pairsOf(scope, [{ user_id: 'MX.N1' }, { user_id: 'MX.N2' }])).size).toBe(0);
    });
  });
}
