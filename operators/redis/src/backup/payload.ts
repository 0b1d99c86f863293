/**
 * A backup's bytes pushed from where they are read into where they are stored, with backpressure, and without a
 * buffer per piece: the source hands the sink views of its own read buffer, which the sink copies at once (into its
 * part buffers). Node streams allocate a Buffer for every chunk instead, and V8 frees those only once some 64 MiB of
 * them have piled up, which alone took a 512 MiB backup past its memory bound (ADR 0024, addendum).
 */
import type { Readable } from 'node:stream';

/** Where a {@link PayloadSource} writes. */
export interface PayloadSink {
  /**
   * Copies `bytes` (at most the source's `maxWriteBytes`; valid only during the call). Returns false when the
   * source must not write again before {@link PayloadSink.drained} resolves.
   */
  write(bytes: Uint8Array): boolean;
  /** Resolves once `write` may be called again (at once when it may now). Never rejects. */
  drained(): Promise<void>;
  /** The last byte was written. */
  end(): void;
  /** The source failed; nothing more is written. */
  fail(err: Error): void;
}

/** Bytes that can be pushed into one {@link PayloadSink}. */
export interface PayloadSource {
  /** The largest single `write` this source makes. */
  readonly maxWriteBytes: number;
  /** Starts writing into `sink`, once; ends with `sink.end()` or `sink.fail()`. */
  copyTo(sink: PayloadSink): void;
  /** Stops the source (its connection or file is closed); `sink.fail` is called if it had not ended. */
  abort(reason?: Error): void;
}

/** Largest write of {@link readablePayload}: a Readable's chunks are cut to this size. */
export const READABLE_WRITE_BYTES = 64 * 1024;

/**
 * A Readable as a {@link PayloadSource} (a file, a test's bytes): its chunks, cut to {@link READABLE_WRITE_BYTES},
 * are written in order, waiting whenever the sink asks. Its chunks are the Readable's own allocations: use an
 * {@link RdbTransfer}'s own `copyTo` for a snapshot.
 */
export function readablePayload(body: Readable): PayloadSource {
  return {
    maxWriteBytes: READABLE_WRITE_BYTES,
    abort: (reason) => {
      body.destroy(reason ?? new Error('the payload was aborted'));
    },
    copyTo: (sink) => {
      void (async () => {
        try {
          for await (const chunk of body as AsyncIterable<Uint8Array | string>) {
            const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
            for (let offset = 0; offset < bytes.length; offset += READABLE_WRITE_BYTES) {
              if (!sink.write(bytes.subarray(offset, offset + READABLE_WRITE_BYTES))) await sink.drained();
            }
          }
          sink.end();
        } catch (err) {
          sink.fail(err instanceof Error ? err : new Error(String(err)));
        }
      })();
    },
  };
}
