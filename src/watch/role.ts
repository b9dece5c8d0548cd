/** The `workerData.role` of `site watch`'s render worker: its own module, so the CLI can tell a worker apart without loading the watch code. */
export const WORKER_ROLE = 'site-render';
