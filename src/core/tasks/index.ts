export { tasksHome, assertTasksHomeApart } from './data-home.js';
export { TaskStore, TaskRecord, TASK_STATUSES, LIVE_STATUSES, type TaskStatus } from './record.js';
export { TaskService, DEFAULT_MAX_TASKS, processAlive, type TaskView } from './service.js';
export { runTask, MAX_TASK_TURNS } from './runner.js';
export { awaitedCalls, IN_FLIGHT_LIMIT_MS } from './awaited.js';
export { findCheckout, type Checkout } from './repository.js';
export { TaskGitError } from './task-git.js';
export type { MergeOutcome, TaskDiff } from './worktree.js';
export { identityLine, type CommitIdentity } from './identity.js';
