export {
  JobQueue,
  JOB_DEFAULTS,
  backoffMs,
  type EnqueueOptions,
  type JobExecutor,
  type JobHandler,
} from './queue.js';
