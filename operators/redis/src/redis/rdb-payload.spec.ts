import { describe, expect, it } from 'vitest';
import { RdbPayloadParser, RdbProtocolError } from './rdb-payload.ts';

const RDB = Buffer.from('REDIS0011\xfa\x09redis-ver\x057.0.15\xff0123456789abcdef-binary\r\n$EOF:tail', 'latin1');
const MARK = 'a'.repeat(20) + 'b'.repeat(20);

/** Feeds `bytes` in chunks of `size` and returns the payload and whether it ended. */
function feed(parser: RdbPayloadParser, bytes: Buffer, size: number): { payload: Buffer; done: boolean } {
  const parts: Buffer[] = [];
  let done = false;
  for (let i = 0; i < bytes.length; i += size) {
    const step = parser.push(bytes.subarray(i, i + size));
    parts.push(...step.payload);
    done = step.done;
  }
  return { payload: Buffer.concat(parts), done };
}

/**
 * As {@link feed}, but every chunk is read into the same buffer, the step's payload copied out at once and the buffer
 * then overwritten, as a socket reading into one buffer does: a parser that kept a view of a chunk would lose bytes.
 */
function feedReusing(parser: RdbPayloadParser, bytes: Buffer, size: number): { payload: Buffer; done: boolean } {
  const reused = Buffer.alloc(size);
  const parts: Buffer[] = [];
  let done = false;
  for (let i = 0; i < bytes.length; i += size) {
    const n = bytes.copy(reused, 0, i, i + size);
    const step = parser.push(reused.subarray(0, n));
    parts.push(...step.payload.map((p) => Buffer.from(p)));
    done = step.done;
    reused.fill(0x2a);
  }
  return { payload: Buffer.concat(parts), done };
}

describe('RdbPayloadParser', () => {
  const replies = '+OK\r\n+OK\r\n';

  for (const size of [1, 3, 7, 40, 41, 4096]) {
    it(`reads a disk-based payload after the replies and keepalive newlines (chunks of ${size})`, () => {
      const parser = new RdbPayloadParser(2);
      const wire = Buffer.concat([Buffer.from(`${replies}\n\n\n$${RDB.length}\r\n`, 'latin1'), RDB]);
      expect(feed(parser, wire, size)).toEqual({ payload: RDB, done: true });
      expect(parser.announcedLength).toBe(RDB.length);
    });

    it(`reads a diskless payload up to its end mark, never passing on a byte of the mark (chunks of ${size})`, () => {
      const parser = new RdbPayloadParser(2);
      const wire = Buffer.concat([Buffer.from(`${replies}\n$EOF:${MARK}\r\n`, 'latin1'), RDB, Buffer.from(MARK, 'latin1')]);
      expect(feed(parser, wire, size)).toEqual({ payload: RDB, done: true });
      expect(parser.announcedLength).toBeUndefined();
    });

    it(`keeps no view of a chunk, so a caller may read every chunk into one buffer (chunks of ${size})`, () => {
      const diskless = Buffer.concat([Buffer.from(`${replies}\n$EOF:${MARK}\r\n`, 'latin1'), RDB, Buffer.from(MARK, 'latin1')]);
      expect(feedReusing(new RdbPayloadParser(2), diskless, size)).toEqual({ payload: RDB, done: true });
      const sized = Buffer.concat([Buffer.from(`${replies}\n\n$${RDB.length}\r\n`, 'latin1'), RDB]);
      expect(feedReusing(new RdbPayloadParser(2), sized, size)).toEqual({ payload: RDB, done: true });
    });
  }

  it('is not done while a diskless payload has not ended, and holds back only the last 40 bytes', () => {
    const parser = new RdbPayloadParser(0);
    parser.push(Buffer.from(`$EOF:${MARK}\r\n`, 'latin1'));
    const step = parser.push(Buffer.alloc(100, 7));
    expect(step.done).toBe(false);
    expect(Buffer.concat(step.payload).length).toBe(60);
  });

  it("throws the server's refusal of a command", () => {
    const parser = new RdbPayloadParser(2);
    expect(() => parser.push(Buffer.from('-WRONGPASS invalid username-password pair or user is disabled.\r\n'))).toThrow(
      new RdbProtocolError('WRONGPASS invalid username-password pair or user is disabled.'),
    );
  });

  it('throws on a refused SYNC and on a header that is not a bulk length', () => {
    expect(() => new RdbPayloadParser(0).push(Buffer.from("-NOPERM this user has no permissions to run the 'sync' command\r\n"))).toThrow(/NOPERM/);
    expect(() => new RdbPayloadParser(0).push(Buffer.from(':12\r\n'))).toThrow(/expected the RDB bulk header/);
    expect(() => new RdbPayloadParser(0).push(Buffer.from('$EOF:short\r\n'))).toThrow(/end mark has 5 bytes/);
  });

  it('throws when bytes follow a sized payload (a server that streams commands after the RDB)', () => {
    const parser = new RdbPayloadParser(0);
    expect(() => parser.push(Buffer.from('$3\r\nabc*1\r\n$4\r\nPING\r\n'))).toThrow(/bytes after the RDB payload/);
  });
});
