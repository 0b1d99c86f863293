import { finished } from 'node:stream';
import type { Readable } from 'node:stream';

/**
 * Hands every chunk of `stream` to `onChunk` as it arrives, through `'data'` events, and resolves once the stream
 * has ended. Rejects with the stream's error, with Node's premature-close error when it closes before its end, or
 * with what `onChunk` threw (the stream is destroyed then). `onChunk` runs synchronously and must not keep the chunk
 * beyond the call unless it copies or slices it.
 *
 * Cheaper than `for await (const chunk of stream)`, which costs a promise and a stream `read()` per chunk: an API
 * server answer of 30 MB comes in about 20,000 chunks of 1.5 KB (the server's HTTP chunks), and receiving it took
 * ~200 ms of CPU with `'data'` events against ~280 ms with the async iterator (median of 6, load 2).
 */
export function consumeChunks(stream: Readable, onChunk: (chunk: Buffer) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failure: Error | undefined;
    const onData = (chunk: Buffer): void => {
      try {
        onChunk(chunk);
      } catch (error) {
        failure = error instanceof Error ? error : new Error('consumeChunks: the chunk handler threw a non-Error', { cause: error });
        stream.off('data', onData);
        stream.destroy();
      }
    };
    stream.on('data', onData);
    // Both listeners are taken off once settled: a keep-alive socket outlives its response, and a listener left on
    // it would keep `onChunk` (and whatever it closes over, e.g. a parser holding every item of a list) reachable.
    const removeFinished = finished(stream, (error) => {
      removeFinished();
      stream.off('data', onData);
      if (failure !== undefined) reject(failure);
      else if (error !== undefined && error !== null) reject(error);
      else resolve();
    });
  });
}
