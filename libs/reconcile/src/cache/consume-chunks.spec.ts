import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { consumeChunks } from './consume-chunks.ts';

describe('consumeChunks', () => {
  it('hands over every chunk in order and resolves at the end', async () => {
    const stream = new PassThrough();
    const seen: string[] = [];
    const done = consumeChunks(stream, (chunk) => seen.push(chunk.toString()));
    stream.write('a');
    stream.write('b');
    stream.end('c');
    await done;
    expect(seen).toEqual(['a', 'b', 'c']);
  });

  it('leaves no listener on the stream once settled (a keep-alive socket outlives its response)', async () => {
    const stream = new PassThrough();
    const events = ['data', 'end', 'finish', 'error', 'close', 'aborted'] as const;
    const before = events.map((event) => stream.listenerCount(event));
    const done = consumeChunks(stream, () => undefined);
    stream.end('a');
    await done;
    expect(events.map((event) => stream.listenerCount(event))).toEqual(before);
  });

  it("rejects with the stream's error, and when the stream closes before its end", async () => {
    const broken = new PassThrough();
    const failed = consumeChunks(broken, () => undefined);
    broken.destroy(new Error('ECONNRESET'));
    await expect(failed).rejects.toThrow('ECONNRESET');

    const cut = new PassThrough();
    const closed = consumeChunks(cut, () => undefined);
    cut.write('a');
    cut.destroy();
    await expect(closed).rejects.toThrow('Premature close');
  });

  it('rejects with what the chunk handler threw and destroys the stream', async () => {
    const stream = new PassThrough();
    const done = consumeChunks(stream, () => {
      throw new SyntaxError('bad JSON');
    });
    stream.write('x');
    await expect(done).rejects.toThrow(SyntaxError);
    expect(stream.destroyed).toBe(true);
  });
});
