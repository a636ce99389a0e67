import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importGraph, ROOT } from './imports.ts';

/**
 * No facades (issue 44): ports were split to pass the 10-method rule and then glued back together, one type
 * extending all five sending ports and one adapter behind it. A port stands alone: no port type extends
 * another, no type joins two ports (`A & B`, an interface extending both), and no store adapter implements
 * two. A use case is given each port it uses as a field of its own.
 */
const graph = importGraph(['lib', 'functions', 'local', 'rehearsal', 'scripts', 'bench', 'test']);
const files = [...graph.keys()].filter((file) => !file.startsWith('test/architecture/'));
const textOf = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** An interface and its body, as the port files write them (the 10-method rule reads them alike). */
const INTERFACE = /^export interface (\w+)(?:<[^>]*>)?(?: extends ([^{]+))?\s*\{\n([\s\S]*?)^\}/gm;

/** The ports: interfaces of each area's ports.ts (lib/domain/<area>/ports.ts) with a method (the others are the shapes the ports carry). */
function portsIn(texts: string[]): Set<string> {
  const ports = new Set<string>();
  for (const text of texts)
    for (const [, name, , body] of text.matchAll(INTERFACE)) if (/^ {2}\w+\??(<[^>]*>)?\(/m.test(body)) ports.add(name);
  return ports;
}

/** A type operand: a name, or a name narrowed (`Pick<SendRecords, 'get'>`); the port it names, if any. */
const OPERAND = String.raw`(?:(?:Pick|Omit|Partial|Readonly|Required)<\s*\w+[^<>]*>|[A-Z]\w*)`;
const INTERSECTION = new RegExp(`${OPERAND}(?:\\s*&\\s*${OPERAND})+`, 'g');
const named = (operand: string) => operand.match(/(\w+)\s*(?:,|>|$)/)?.[1] ?? operand;

/** Each place a text joins two ports or more, or makes a port of others: what it writes there. */
function gluedPorts(text: string, ports: Set<string>): string[] {
  const glued: string[] = [];
  const portsOf = (operands: string[]) => [...new Set(operands.map((operand) => named(operand.trim())))].filter((name) => ports.has(name));
  for (const [chain] of text.matchAll(INTERSECTION)) if (portsOf(chain.split('&')).length > 1) glued.push(chain);
  for (const [whole, name, bases] of text.matchAll(/\binterface (\w+)(?:<[^>]*>)? extends ([^{]+)\{/g))
    if (portsOf(bases.split(',')).length > 1 || (ports.has(name) && portsOf(bases.split(',')).length > 0))
      glued.push(whole.slice(0, -1).trim());
  return glued;
}

/** Each class that implements two ports or more: a store's adapter is one a port (its parts share a module of items). */
function adaptersOfSeveral(text: string, ports: Set<string>): string[] {
  return [...text.matchAll(/\bclass \w+(?:<[^>]*>)?(?:\s+extends \w+(?:<[^>]*>)?)?\s+implements\s+([^{]+)\{/g)]
    .filter(([, bases]) => bases.split(',').filter((base) => ports.has(named(base.trim()))).length > 1)
    .map(([whole]) => whole.slice(0, -1).replace(/\s+/g, ' ').trim());
}

/** The stores' adapters: on the table, and in memory for the unit tests (Graph's client is one adapter of one API). */
const isStoreAdapter = (file: string) => file.startsWith('lib/adapters/dynamo/') || file.startsWith('test/support/memory/');

describe('no facades: each port stands alone (issue 44)', () => {
  const ports = portsIn(files.filter((file) => file.startsWith('lib/domain/') && file.endsWith('/ports.ts')).map(textOf));

  it('reads the ports (so the rule below cannot pass vacuously)', () => {
    expect(ports.size).toBeGreaterThan(20);
    expect(ports).toContain('SendRecords');
    expect(ports).toContain('TemplateListing');
    expect(ports).not.toContain('SendRecord');
  });

  it('has no port extending another and no type joining two ports', () => {
    const glued = files.flatMap((file) => gluedPorts(textOf(file), ports).map((where) => `${file}: ${where}`));
    expect(glued).toEqual([]);
  });

  it('has one store adapter a port: no class of the stores implements two', () => {
    const stores = files.filter(isStoreAdapter);
    const several = stores.flatMap((file) => adaptersOfSeveral(textOf(file), ports).map((where) => `${file}: ${where}`));
    expect(stores.length).toBeGreaterThan(40);
    expect(several).toEqual([]);
  });

  it('finds a port glued back together (the check itself works)', () => {
    const ports = new Set(['SendRecords', 'BlockLedger', 'HeldJobs']);
    const text = [
      'export interface SendStore extends SendRecords, BlockLedger {}',
      'export interface BlockLedger extends HeldJobs {',
      '  sends: SendRecords & Pick<BlockLedger, "claimBlock" | "settleBlock">;',
      'export type Store = SendRecords & HeldJobs & { extra: true };',
      'export class DynamoSendStore',
      '  implements SendRecords, HeldJobs {',
      // One port, narrowed or beside a shape, and a class of one port, are not glued.
      '  sends: SendRecords; blocks: Pick<BlockLedger, "claimBlock">; both: SendRecords & { id: string };',
      'export class DynamoHeldJobs implements HeldJobs {',
    ].join('\n');
    expect(gluedPorts(text, ports)).toEqual([
      'SendRecords & Pick<BlockLedger, "claimBlock" | "settleBlock">',
      'SendRecords & HeldJobs',
      'interface SendStore extends SendRecords, BlockLedger',
      'interface BlockLedger extends HeldJobs',
    ]);
    expect(adaptersOfSeveral(text, ports)).toEqual(['class DynamoSendStore implements SendRecords, HeldJobs']);
  });
});
