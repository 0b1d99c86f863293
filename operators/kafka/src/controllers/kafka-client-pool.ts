import { ClientCache } from '@domain-operators/reconcile';
import type { Clock } from '@domain-operators/reconcile';
import type { ClusterInfo, KafkaAdmin } from '../kafka/admin.ts';
import type { KafkaConnectionOptions } from '../kafka/connection.ts';
import { PlatformaticKafkaAdmin, type RequestCounter } from '../kafka/platformatic-admin.ts';
import { TopicBatcher } from '../kafka/topic-batcher.ts';

/** The clients of one Kafka cluster, shared by every reconcile that uses its KafkaConnection. */
export interface ClusterClients {
  readonly admin: KafkaAdmin;
  /** Batches the topic reads and creations of concurrent reconciles. */
  readonly topics: TopicBatcher;
  readonly bootstrapServers: readonly string[];
  /**
   * Cluster id, controller and brokers, cached for the pool's `clusterInfoTtlMs` (concurrent callers share one
   * request); `fresh` asks Kafka now. Rejects like {@link KafkaAdmin.clusterInfo}.
   */
  clusterInfo(fresh?: boolean): Promise<ClusterInfo>;
}

/** Dependencies of a {@link KafkaClientPool}. */
export interface KafkaClientPoolDeps {
  readonly clock: Clock;
  /** Builds the admin of a connection; default a {@link PlatformaticKafkaAdmin}. */
  readonly createAdmin?: (options: KafkaConnectionOptions) => KafkaAdmin;
  /** Told of every admin request (for metrics). */
  readonly requestCounter?: RequestCounter;
}

/** Options of a {@link KafkaClientPool}. */
export interface KafkaClientPoolOptions {
  /** Topics per batched request (default 100). */
  readonly maxBatchSize?: number;
  /** How long a batch waits for company (default 50 ms). */
  readonly lingerMs?: number;
  /** How long a cluster description is reused (default 30 s). */
  readonly clusterInfoTtlMs?: number;
}

/**
 * One {@link ClusterClients} per KafkaConnection (the runtime's `ClientCache`), so thousands of topics share one
 * connection and one batcher. An entry is keyed by a version string the caller computes from everything the clients depend on (the connection's
 * generation and its Secrets' resourceVersions): a new key closes the old clients and builds new ones, so a
 * rotated operator password or a changed bootstrap list takes effect at the next reconcile. No I/O until a client
 * is used.
 */
export class KafkaClientPool {
  readonly #deps: KafkaClientPoolDeps;
  readonly #options: KafkaClientPoolOptions;
  readonly #cache = new ClientCache<ClusterClients>({ close: (clients) => clients.admin.close() });

  /** Builds nothing yet. */
  constructor(deps: KafkaClientPoolDeps, options: KafkaClientPoolOptions = {}) {
    this.#deps = deps;
    this.#options = options;
  }

  /**
   * The clients of connection `name` at version `key`; `settings` is called only when they must be (re)built, and
   * what it throws is thrown (the previous clients are kept then); closing replaced clients happens in the background.
   */
  clientsFor(name: string, key: string, settings: () => KafkaConnectionOptions): ClusterClients {
    return this.#cache.get(name, key, () => this.#build(settings()));
  }

  /** Closes and forgets the clients of a connection that is gone. Idempotent. */
  forget(name: string): void {
    this.#cache.forget(name);
  }

  /** Closes every client. Idempotent; never rejects. */
  async close(): Promise<void> {
    await this.#cache.close();
  }

  #build(settings: KafkaConnectionOptions): ClusterClients {
    const options: KafkaConnectionOptions = { clientId: 'kafka-operator', connectTimeoutMs: 5_000, requestTimeoutMs: 15_000, ...settings };
    const admin =
      this.#deps.createAdmin?.(options) ??
      new PlatformaticKafkaAdmin(this.#deps.requestCounter === undefined ? {} : { requestCounter: this.#deps.requestCounter }, options);
    const { clock } = this.#deps;
    const topics = new TopicBatcher(
      { admin, clock },
      {
        ...(this.#options.maxBatchSize !== undefined && { maxBatchSize: this.#options.maxBatchSize }),
        ...(this.#options.lingerMs !== undefined && { lingerMs: this.#options.lingerMs }),
      },
    );
    const ttl = this.#options.clusterInfoTtlMs ?? 30_000;
    let cached: { readonly at: number; readonly info: Promise<ClusterInfo> } | undefined;
    const clusterInfo = (fresh = false): Promise<ClusterInfo> => {
      if (!fresh && cached !== undefined && clock.now() - cached.at < ttl) return cached.info;
      const info = admin.clusterInfo();
      const entry = { at: clock.now(), info };
      cached = entry;
      // A failure is not cached: the next caller asks again.
      info.catch(() => {
        if (cached === entry) cached = undefined;
      });
      return info;
    };
    return { admin, topics, bootstrapServers: settings.bootstrapServers, clusterInfo };
  }
}
