import type { FastifyBaseLogger } from 'fastify';
import type { SearchEngine } from './search/listing-search.js';

/**
 * Whether this process answers a search without first loading its index (GET /readyz). The memory
 * engine reads every listing into its index before its first answer: at a million listings that is
 * minutes of CPU, during which nginx's passive checks would keep sending searches that wait far
 * past its read timeout. So a process whose index is still loading is not ready. PostgreSQL search
 * keeps nothing and is ready at once; so is an index the app builds on first use instead of at
 * start-up (NODE_ENV=test: a test's few rows take milliseconds).
 *
 * A load that fails is logged and tried again at the next readiness check, so a monitor's polling
 * retries it, and the process stays out of rotation meanwhile.
 */
export class SearchReadiness {
  private state: 'cold' | 'loading' | 'ready';

  constructor(
    private readonly engine: SearchEngine,
    private readonly logger: FastifyBaseLogger,
    /** The engine must load before it answers, and the app loads it at start-up. */
    loadsAtStart: boolean,
  ) {
    this.state = loadsAtStart ? 'cold' : 'ready';
  }

  /** Starts loading the index (start-up), unless it is loading or loaded. */
  load(): void {
    if (this.state !== 'cold') return;
    this.state = 'loading';
    this.engine.warm().then(
      () => {
        this.state = 'ready';
      },
      (err: unknown) => {
        this.state = 'cold';
        this.logger.error({ err }, 'building the search index failed');
      },
    );
  }

  /** True once searches answer at once; a failed load is started again here. */
  ready(): boolean {
    this.load();
    return this.state === 'ready';
  }
}
