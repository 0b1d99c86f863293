/** A data stream as `GET _data_stream/<name>` reports it, and its parser. Pure. */
import { isRecord, stringField } from './json.ts';

/** What the operator reads of a data stream. */
export interface ObservedDataStream {
  readonly name: string;
  /** 1 when created, one more after each rollover. */
  readonly generation: number;
  /** Backing index names, oldest first (the last one is the write index). */
  readonly backingIndices: readonly string[];
  /** `green`, `yellow` or `red` (OpenSearch reports it in capitals). */
  readonly health: string;
  /** The index template it was created from. */
  readonly template: string;
}

/** The entry named `name` of a `GET _data_stream/<name>` answer, or `undefined` when it has none. Pure. */
export function parseDataStream(body: unknown, name: string): ObservedDataStream | undefined {
  const streams = isRecord(body) ? body['data_streams'] : undefined;
  if (!Array.isArray(streams)) return undefined;
  const entry: unknown = streams.find((stream) => stringField(stream, 'name') === name);
  if (!isRecord(entry)) return undefined;
  const indices = Array.isArray(entry['indices']) ? entry['indices'] : [];
  const generation = entry['generation'];
  return {
    name,
    generation: typeof generation === 'number' ? generation : 0,
    backingIndices: indices.map((index) => stringField(index, 'index_name') ?? '').filter((index) => index !== ''),
    health: (stringField(entry, 'status') ?? 'unknown').toLowerCase(),
    template: stringField(entry, 'template') ?? '',
  };
}
