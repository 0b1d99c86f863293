import { Connection, type SASLOptions } from '@platformatic/kafka';
import { Reasons } from '@domain-operators/reconcile';
import { classifyKafkaError, isConnectionFailure, isKafkaAdminError } from './errors.ts';

/** SASL login of the admin client. The password is a secret: it is never logged nor put in an error. */
export interface KafkaSasl {
  readonly mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256' | 'PLAIN';
  readonly username: string;
  readonly password: string;
}

/** TLS towards the brokers. */
export interface KafkaTls {
  /** PEM of the CA that signed the brokers' certificates; the system CAs when absent. */
  readonly ca?: string;
  /** Accept any certificate: for tests only. */
  readonly insecureSkipVerify?: boolean;
}

/** How to reach and log in to a cluster (what a KafkaConnection resolves to). */
export interface KafkaConnectionOptions {
  /** `host:port` of one or more brokers; tried in order. */
  readonly bootstrapServers: readonly string[];
  readonly sasl?: KafkaSasl;
  readonly tls?: KafkaTls;
  /** Client id the brokers see (default `kafka-operator`). */
  readonly clientId?: string;
  /** Per broker connection attempt (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** Per request (default 30 s). */
  readonly requestTimeoutMs?: number;
}

/**
 * One authenticated connection to one broker of the cluster, made on first use and replaced after it breaks. In
 * KRaft every broker forwards admin requests to the controller, so one connection carries all of them. A request
 * the broker cannot parse makes it close the connection: the next call reconnects instead of failing forever.
 * Concurrent callers share the connection and a connection attempt in progress.
 */
export class ReconnectingConnection {
  readonly #options: KafkaConnectionOptions;
  #current: Promise<Connection> | undefined;
  // The connection #current resolved to, so that a failed call discards only the connection it used.
  #connected: Connection | undefined;

  /** Connects nothing yet. */
  constructor(options: KafkaConnectionOptions) {
    this.#options = options;
  }

  /**
   * Runs `fn` on a connected connection. Any failure is classified (`classifyKafkaError`) under `action`; a failure
   * of the connection itself discards it so the next call reconnects.
   */
  async use<T>(action: string, fn: (connection: Connection) => Promise<T>): Promise<T> {
    const connection = await this.#get(action);
    try {
      return await fn(connection);
    } catch (err) {
      if (isConnectionFailure(err) || !connection.isConnected()) this.#discard(connection);
      throw classifyKafkaError(err, action);
    }
  }

  /** Closes the connection (a later `use` reconnects). Idempotent; never rejects. */
  async close(): Promise<void> {
    const current = this.#current;
    this.#current = undefined;
    this.#connected = undefined;
    if (current === undefined) return;
    const connection = await current.catch(() => undefined);
    await connection?.close().catch(() => undefined);
  }

  async #get(action: string): Promise<Connection> {
    if (this.#current !== undefined) {
      const existing = await this.#current.catch(() => undefined);
      if (existing?.isConnected() === true) return existing;
      if (existing !== undefined) this.#discard(existing);
    }
    const attempt = this.#connect(action);
    this.#current = attempt;
    attempt.then(
      (connection) => {
        if (this.#current === attempt) this.#connected = connection;
      },
      () => {
        if (this.#current === attempt) this.#current = undefined;
      },
    );
    return attempt;
  }

  async #connect(action: string): Promise<Connection> {
    let last: Error = new Error('no bootstrap servers configured');
    for (const server of this.#options.bootstrapServers) {
      const [host, port] = splitHostPort(server);
      const connection = new Connection(this.#options.clientId ?? 'kafka-operator', this.#connectionOptions());
      // Without a listener an 'error' event would crash the process; failures surface through the promises.
      connection.on('error', () => undefined);
      try {
        await connection.connect(host, port);
        return connection;
      } catch (err) {
        await connection.close().catch(() => undefined);
        last = classifyKafkaError(err, action);
        // Other brokers check the same credentials: no point asking them.
        if (isKafkaAdminError(last, Reasons.authenticationFailed)) throw last;
      }
    }
    throw last;
  }

  #connectionOptions(): ConstructorParameters<typeof Connection>[1] {
    const { sasl, tls } = this.#options;
    const saslOptions: SASLOptions | undefined = sasl === undefined ? undefined : { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password };
    return {
      connectTimeout: this.#options.connectTimeoutMs ?? 5_000,
      requestTimeout: this.#options.requestTimeoutMs ?? 30_000,
      ...(saslOptions === undefined ? {} : { sasl: saslOptions }),
      ...(tls === undefined ? {} : { tls: { ...(tls.ca === undefined ? {} : { ca: tls.ca }), rejectUnauthorized: tls.insecureSkipVerify !== true } }),
    };
  }

  #discard(connection: Connection): void {
    if (this.#connected === connection) {
      this.#current = undefined;
      this.#connected = undefined;
    }
    void connection.close().catch(() => undefined);
  }
}

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, '$1');
  return [host, Number(address.slice(at + 1))];
}
