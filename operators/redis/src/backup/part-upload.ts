/**
 * An S3 multipart upload fed by a {@link PayloadSource}, over a fixed pool of part buffers: `partsInFlight + 1`
 * buffers of `partSizeBytes` are allocated once per upload; the source's bytes are copied into the one being
 * filled, a full one is sent (`UploadPart`) and is filled again once S3 has answered. So the upload holds exactly
 * that pool, however large the object, and allocates nothing per part or per piece (`@aws-sdk/lib-storage`'s
 * `Upload`, used before, concatenated each part out of the stream's chunks and held those chunks meanwhile).
 * The object appears under its key only at `CompleteMultipartUpload`; on any failure the upload is aborted.
 */
import { AbortMultipartUploadCommand, ChecksumAlgorithm, CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import type { PayloadSink, PayloadSource } from './payload.ts';

/** Sizes of {@link uploadParts}'s pool. */
export interface PartUploadOptions {
  /** Bytes per part (S3's minimum is 5 MiB, but for the last part). */
  readonly partSizeBytes: number;
  /** Parts sent at once; the pool holds one more, being filled. */
  readonly partsInFlight: number;
}

/** Where the object goes. */
export interface PartUploadTarget {
  readonly bucket: string;
  readonly key: string;
}

/**
 * Uploads everything `source` writes to `target.key` as a multipart upload and completes it. Rejects with the S3 or
 * the source's error (the multipart upload then aborted, best effort); aborting `signal` aborts the source and the
 * upload the same way. Throws before any request when `source.maxWriteBytes` exceeds a part.
 */
export async function uploadParts(client: S3Client, target: PartUploadTarget, source: PayloadSource, options: PartUploadOptions, signal?: AbortSignal): Promise<void> {
  if (source.maxWriteBytes > options.partSizeBytes) throw new Error(`a source writing ${source.maxWriteBytes} bytes at once needs parts at least that large`);
  const send = { ...(signal === undefined ? {} : { abortSignal: signal }) };
  const checksums = (await client.config.requestChecksumCalculation()) === 'WHEN_SUPPORTED';
  const created = await client.send(
    new CreateMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, ContentType: 'application/octet-stream', ...(checksums ? { ChecksumAlgorithm: ChecksumAlgorithm.CRC32 } : {}) }),
    send,
  );
  const uploadId = created.UploadId;
  if (uploadId === undefined) throw new Error(`S3 started no multipart upload for ${target.key}`);
  const pool = new PartPool(options, (part, body) => client.send(new UploadPartCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId, PartNumber: part, Body: body }), send));
  const onAbort = (): void => {
    source.abort(new Error('the upload was aborted'));
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    source.copyTo(pool.sink(source.maxWriteBytes));
    const parts = await pool.finished();
    await client.send(new CompleteMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId, MultipartUpload: { Parts: parts } }), send);
  } catch (err) {
    source.abort(err instanceof Error ? err : new Error(String(err)));
    // A part still in flight that S3 stores after the abort brings the upload back (S3's documentation says to
    // abort once parts in progress are done); so wait for them to end first (they fail fast when `signal` aborted).
    await pool.settled();
    await client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: target.key, UploadId: uploadId })).catch(() => undefined);
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

/** What S3 answers to one part. */
interface PartAnswer {
  readonly ETag?: string | undefined;
  readonly ChecksumCRC32?: string | undefined;
  readonly ChecksumCRC32C?: string | undefined;
  readonly ChecksumCRC64NVME?: string | undefined;
  readonly ChecksumSHA1?: string | undefined;
  readonly ChecksumSHA256?: string | undefined;
}

/** The part buffers, the one being filled, the parts in flight and the answers; one per upload. */
class PartPool {
  readonly #options: PartUploadOptions;
  readonly #sendPart: (partNumber: number, body: Uint8Array) => Promise<PartAnswer>;
  readonly #free: Buffer[];
  readonly #inFlight = new Set<Promise<void>>();
  readonly #parts: CompletedPart[] = [];
  #current: Buffer | undefined;
  #filled = 0;
  #partNumber = 0;
  #failure: Error | undefined;
  #waiters: (() => void)[] = [];
  #ended: Promise<void>;
  #end: () => void = () => undefined;
  #fail: (err: Error) => void = () => undefined;
  #onFailure: (err: Error) => void = () => undefined;

  constructor(options: PartUploadOptions, sendPart: (partNumber: number, body: Uint8Array) => Promise<PartAnswer>) {
    this.#options = options;
    this.#sendPart = sendPart;
    this.#free = Array.from({ length: options.partsInFlight + 1 }, () => Buffer.allocUnsafeSlow(options.partSizeBytes));
    this.#current = this.#free.pop();
    this.#ended = new Promise<void>((resolve, reject) => {
      this.#end = resolve;
      this.#fail = reject;
    });
    this.#ended.catch(() => undefined);
  }

  /** The sink a source of writes of at most `maxWriteBytes` writes into. */
  sink(maxWriteBytes: number): PayloadSink {
    const room = (): number => (this.#current === undefined ? 0 : this.#current.length - this.#filled) + (this.#free.length > 0 ? this.#options.partSizeBytes : 0);
    const writable = (): boolean => this.#failure !== undefined || room() >= maxWriteBytes;
    return {
      write: (bytes) => {
        if (this.#failure !== undefined) return false;
        let offset = 0;
        while (offset < bytes.length) {
          if (this.#current === undefined) this.#current = this.#free.pop();
          const current = this.#current;
          if (current === undefined) throw new Error('a payload source wrote after its sink asked it to wait');
          const take = Math.min(bytes.length - offset, current.length - this.#filled);
          current.set(bytes.subarray(offset, offset + take), this.#filled);
          this.#filled += take;
          offset += take;
          if (this.#filled === current.length) this.#dispatch();
        }
        return writable();
      },
      drained: () => (writable() ? Promise.resolve() : new Promise<void>((resolve) => this.#waiters.push(resolve))),
      end: () => {
        this.#end();
      },
      fail: (err) => {
        this.#fail(err);
      },
    };
  }

  /** Resolves with the completed parts in order once the source ended and every part is stored; rejects on the first failure. */
  async finished(): Promise<CompletedPart[]> {
    const failed = new Promise<never>((_, reject) => {
      this.#onFailure = reject;
    });
    failed.catch(() => undefined);
    this.#throwIfFailed();
    await Promise.race([this.#ended, failed]);
    if (this.#filled > 0 || this.#partNumber === 0) this.#dispatch();
    while (this.#inFlight.size > 0) await Promise.race([Promise.all([...this.#inFlight]), failed]);
    this.#throwIfFailed();
    return [...this.#parts].sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0));
  }

  /** Resolves once no part is in flight (stored or failed). Never rejects. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
  }

  #throwIfFailed(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Sends the buffer being filled as the next part; its buffer returns to the pool when S3 has answered. */
  #dispatch(): void {
    const buffer = this.#current;
    if (buffer === undefined) return;
    const partNumber = ++this.#partNumber;
    const body = buffer.subarray(0, this.#filled);
    this.#current = this.#free.pop();
    this.#filled = 0;
    const sent: Promise<void> = this.#sendPart(partNumber, body).then(
      (answer) => {
        if (answer.ETag === undefined) throw new Error(`S3 answered part ${partNumber} without an ETag`);
        this.#parts.push({
          PartNumber: partNumber,
          ETag: answer.ETag,
          ...(answer.ChecksumCRC32 === undefined ? {} : { ChecksumCRC32: answer.ChecksumCRC32 }),
          ...(answer.ChecksumCRC32C === undefined ? {} : { ChecksumCRC32C: answer.ChecksumCRC32C }),
          ...(answer.ChecksumCRC64NVME === undefined ? {} : { ChecksumCRC64NVME: answer.ChecksumCRC64NVME }),
          ...(answer.ChecksumSHA1 === undefined ? {} : { ChecksumSHA1: answer.ChecksumSHA1 }),
          ...(answer.ChecksumSHA256 === undefined ? {} : { ChecksumSHA256: answer.ChecksumSHA256 }),
        });
      },
    ).catch((err: unknown) => {
      this.#failure ??= err instanceof Error ? err : new Error(String(err));
      this.#onFailure(this.#failure);
    }).finally(() => {
      this.#inFlight.delete(sent);
      this.#free.push(buffer);
      const waiters = this.#waiters;
      this.#waiters = [];
      for (const wake of waiters) wake();
    });
    this.#inFlight.add(sent);
  }
}
