import * as http from 'node:http';
import * as https from 'node:https';

// One twin per client-node agent: client-node caches its agent per cluster and user, so its twin is cached alike.
const twins = new WeakMap<http.Agent, http.Agent>();

/**
 * The agent to send a list or watch request with, given the one `KubeConfig.applyToHTTPSOptions` put into the
 * request options. client-node's plain `http.Agent`/`https.Agent` is built without `keepAlive`, so every request
 * (each page of a paginated list, each re-watch) opened a new TCP connection and TLS handshake; this returns its
 * keep-alive twin instead: the same options (CA, client certificate and key, server name, …) plus `keepAlive: true`,
 * built once per client-node agent and reused. Idle sockets of a keep-alive agent are unreferenced, so they never
 * hold a process open. Anything else (a proxy agent, a subclass, no agent) is returned unchanged.
 */
export function keepAliveAgent<A>(agent: A): A | http.Agent {
  if (!(agent instanceof http.Agent)) return agent;
  const plain = agent as http.Agent & { readonly keepAlive?: boolean; readonly options?: https.AgentOptions };
  const kind: unknown = plain.constructor;
  if ((kind !== https.Agent && kind !== http.Agent) || plain.keepAlive === true) return agent;
  let twin = twins.get(plain);
  if (twin === undefined) {
    const options = { ...plain.options, keepAlive: true };
    twin = kind === https.Agent ? new https.Agent(options) : new http.Agent(options);
    twins.set(plain, twin);
  }
  return twin;
}
