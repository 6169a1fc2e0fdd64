export {
  JobQueue,
  JOB_DEFAULTS,
  JOB_PRIORITY,
  backoffMs,
  type EnqueueOptions,
  type JobExecutor,
  type JobHandler,
} from './queue.js';
