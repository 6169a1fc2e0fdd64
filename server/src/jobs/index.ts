export {
  JobQueue,
  JOB_DEFAULTS,
  JOB_PRIORITY,
  type JobPriority,
  backoffMs,
  type EnqueueOptions,
  type JobExecutor,
  type JobHandler,
} from './queue.js';
