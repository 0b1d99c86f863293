import { describe, expect, it } from 'vitest';
import { ListBodyParser } from './list-body.ts';

function parse(chunks: readonly Buffer[]): ReturnType<ListBodyParser['end']> {
  const parser = new ListBodyParser();
  for (const chunk of chunks) parser.push(chunk);
  return parser.end();
}

/** What the parser must return for `text`: `JSON.parse` of the whole body, items split off. */
function expected(text: string): { rest: Record<string, unknown>; items: unknown[] } {
  const { items, ...rest } = JSON.parse(text) as Record<string, unknown>;
  return { rest, items: Array.isArray(items) ? items : [] };
}

const body = JSON.stringify({
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: 'eyJ2Ijoi"items"' },
  items: [
    { metadata: { name: 'a', labels: { items: '[{]}' } }, data: { 'x"y': 'back\\slash \\" quote }] ü €', items: [1, [2], { items: [] }] } },
    { metadata: { name: 'b' }, data: {} },
    [],
  ],
});

describe('ListBodyParser', () => {
  it('returns what JSON.parse returns, for every split of the body into two and into three chunks', () => {
    const bytes = Buffer.from(body);
    const want = expected(body);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(parse([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(want);
    }
    for (let cut = 0; cut + 7 <= bytes.length; cut += 3) {
      expect(parse([bytes.subarray(0, cut), bytes.subarray(cut, cut + 7), bytes.subarray(cut + 7)])).toEqual(want);
    }
  });

  it('reads a body fed one byte at a time, with multi-byte UTF-8 characters split between chunks', () => {
    const bytes = Buffer.from(body);
    expect(parse([...bytes].map((byte) => Buffer.from([byte])))).toEqual(expected(body));
  });

  it('keeps members after items, blanks around tokens, an empty items and a missing one', () => {
    for (const text of [
      '{"items":[{"a":1}],"metadata":{"resourceVersion":"7"},"kind":"List"}',
      '{ "kind" : "List" ,\n "items" :\t[ { "a" : [ 1 , 2 ] } ,\r\n { } ] , "metadata" : { } }',
      '{"kind":"List","items":[],"metadata":{}}',
      '{"kind":"List","metadata":{"items":[{"nested":true}]}}',
      '{"kind":"items","other":[{"a":1}]}',
    ]) {
      expect(parse([Buffer.from(text)]), text).toEqual(expected(text));
    }
  });

  it('parses each element as soon as it is complete, before the body ends', () => {
    const parser = new ListBodyParser();
    parser.push(Buffer.from('{"kind":"List","items":[{"a":1},{"b":'));
    expect(() => {
      parser.push(Buffer.from('}'));
    }).toThrow(SyntaxError);
  });

  it('throws a SyntaxError for malformed, truncated or non-object input', () => {
    const cases = ['{"items":[{"a":}]}', '{"items":[{"a":1}', '{"kind":"List"', '[1,2]', '{"items":[1,2]}', '{"kind":List}'];
    for (const text of cases) expect(() => parse([Buffer.from(text)]), text).toThrow(SyntaxError);
  });
});
