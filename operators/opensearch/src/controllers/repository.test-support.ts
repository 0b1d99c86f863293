// An in-memory OpenSearch snapshot-repository registry for the OpenSearchSnapshotRepository controller's unit tests:
// the repository calls of OpenSearchApi over FakeOpenSearch's other calls, holding settings flattened and as strings
// (as OpenSearch reports them) and failing the way the real node answers (HTTP 500 with a repository_exception or a
// repository_verification_exception, as the client classifies it). Not used outside tests.
import { OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import { flattenSettings } from '../opensearch/repository-plan.ts';
import type { ObservedRepository, RepositoryBody } from '../opensearch/snapshot-types.ts';
import type { Call } from './controller.test-support.ts';
import { FakeOpenSearch } from './controller.test-support.ts';

/** The fake's `path.repo`: an `fs` location must lie under it. */
export const FAKE_PATH_REPO = '/var/snapshots';

/** An in-memory repository registry; every write and every verification is recorded in `calls`. */
export class FakeRepositories {
  readonly repositories = new Map<string, ObservedRepository>();
  /** The node names a verification reports. */
  nodes: readonly string[] = ['node-1'];
  /** When set, a verification fails with this text (the storage is unreachable). */
  verificationProblem: string | undefined;
  readonly #calls: Call[];

  constructor(calls: Call[]) {
    this.#calls = calls;
  }

  /** A repository as someone registered it by hand (not recorded). */
  registerByHand(name: string, body: RepositoryBody): void {
    this.repositories.set(name, { type: body.type, settings: flattenSettings(body.settings) });
  }

  /** The {@link OpenSearchApi}: these repository calls over {@link FakeOpenSearch}'s (which rejects the other snapshot calls). */
  api(): OpenSearchApi {
    return {
      ...new FakeOpenSearch(this.#calls).api(),
      getRepository: (name) => Promise.resolve(this.repositories.get(name)),
      putRepository: (name, body) => {
        this.#calls.push({ to: 'opensearch', op: 'putRepository', name, body });
        const refusal = refusalOf(name, body);
        if (refusal !== undefined) return Promise.reject(new OpenSearchError(OpenSearchReasons.unavailable, `register snapshot repository ${name}: repository_exception: ${refusal}`, 500));
        this.registerByHand(name, body);
        return Promise.resolve();
      },
      verifyRepository: (name) => {
        this.#calls.push({ to: 'opensearch', op: 'verifyRepository', name });
        if (!this.repositories.has(name)) return Promise.reject(new OpenSearchError(OpenSearchReasons.notFound, `verify snapshot repository ${name}: repository_missing_exception: [${name}] missing`, 404));
        if (this.verificationProblem !== undefined) {
          return Promise.reject(new OpenSearchError(OpenSearchReasons.unavailable, `verify snapshot repository ${name}: repository_verification_exception: [${name}] ${this.verificationProblem}`, 500));
        }
        return Promise.resolve([...this.nodes]);
      },
      deleteRepository: (name) => {
        this.#calls.push({ to: 'opensearch', op: 'deleteRepository', name });
        this.repositories.delete(name);
        return Promise.resolve();
      },
    };
  }
}

/** What the real node refuses to register: an unknown type, an `fs` location outside `path.repo`. */
function refusalOf(name: string, body: RepositoryBody): string | undefined {
  if (body.type !== 'fs' && body.type !== 's3') return `[${name}] repository type [${body.type}] does not exist`;
  const location = body.settings['location'];
  if (body.type === 'fs' && (typeof location !== 'string' || !location.startsWith(`${FAKE_PATH_REPO}/`))) {
    return `[${name}] location [${typeof location === 'string' ? location : JSON.stringify(location)}] doesn't match any of the locations specified by path.repo`;
  }
  return undefined;
}
